import { md5 } from 'js-md5';

/** Passwords travel as the MD5 hex of the plain text (SEED-SPEC section 5); the server salts and stretches it. */
export function hashPassword(plain: string): string {
  return md5(plain);
}

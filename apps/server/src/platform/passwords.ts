import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** The MD5 hex the web client sends instead of the plain password (SEED-SPEC section 5). */
export function md5Hex(plain: string): string {
  return createHash('md5').update(plain, 'utf8').digest('hex');
}

/** Hashes the client's MD5 hex as `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashPassword(clientMd5: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const { N, r, p, keyLength } = SCRYPT;
  const key = await scryptAsync(clientMd5.toLowerCase(), salt, keyLength, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks the client's MD5 hex against a stored hash in constant time; false for any malformed hash. */
export async function verifyPassword(clientMd5: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
  if (!Number.isInteger(options.N) || !Number.isInteger(options.r) || !Number.isInteger(options.p)) return false;
  const actual = await scryptAsync(clientMd5.toLowerCase(), Buffer.from(salt, 'base64url'), expected.length, options);
  return timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;

/** A stored-hash of a random password, checked for unknown names so they cost as long as a wrong password. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

import { count } from 'drizzle-orm';
import { hashPassword, md5Hex } from '../platform/passwords.js';
import type { Database } from '../db/client.js';
import { users } from '../db/schema/index.js';

/** Refusal to start: an empty PostgreSQL database without ADMIN_INITIAL_PASSWORD. */
export class MissingInitialPasswordError extends Error {
  override name = 'MissingInitialPasswordError';
}

/**
 * On a database without any account (a fresh PostgreSQL server, no demo data) creates `admin` from
 * ADMIN_INITIAL_PASSWORD. It must change that password at its first login (code 601), which goes
 * through an SMS code, hence ADMIN_INITIAL_PHONE. Answers whether it created the account.
 */
export async function ensureInitialAdmin(
  db: Database,
  initial: { password: string | undefined; phone: string | undefined },
): Promise<boolean> {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(users);
  if (total > 0) return false;
  if (!initial.password || !initial.phone) {
    throw new MissingInitialPasswordError(
      'the database has no account yet: set ADMIN_INITIAL_PASSWORD and ADMIN_INITIAL_PHONE to create the first admin (or SEED_DEMO=1 for the demo accounts)',
    );
  }
  const { password, phone } = initial;
  await db
    .insert(users)
    .values({
      loginName: 'admin',
      passwordHash: await hashPassword(md5Hex(password)),
      phoneNum: phone,
      type: 'company',
      name: '系统管理员',
      company: 'Campus Ops',
      mustChangePassword: true,
    })
    .onConflictDoNothing();
  return true;
}

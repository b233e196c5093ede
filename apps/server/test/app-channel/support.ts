/** Parents of the demo seed signed in through the app channel, for the channel's tests. */
import { APP_PATHS } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { hashPassword, md5Hex } from '../../src/platform/passwords.js';
import type { TestApp } from '../helpers/test-app.js';

export const PARENT_PASSWORD = 'Parent#2026';

export interface DemoParent {
  id: number;
  phoneNum: string;
  schoolId: number;
  childIds: number[];
}

/** Demo parents with their children, the first parent of each school first (it has two children). */
export async function demoParents(t: TestApp): Promise<DemoParent[]> {
  const found = (await t.db.execute(sql`
    select p.id, p.phone_num as "phoneNum", p.school_id as "schoolId", array_agg(ps.student_id order by ps.student_id) as "childIds"
    from parents p join parent_students ps on ps.parent_id = p.id group by p.id order by p.id`)) as unknown as { rows: { id: number; phoneNum: string; schoolId: number; childIds: number[] }[] };
  return found.rows.map((row) => ({ id: Number(row.id), phoneNum: String(row.phoneNum), schoolId: Number(row.schoolId), childIds: row.childIds.map(Number) }));
}

/** Gives a parent the app password PARENT_PASSWORD (as the console's parentUser page would). */
export async function setParentPassword(t: TestApp, parentId: number): Promise<void> {
  await t.db.execute(sql`update parents set password_hash = ${await hashPassword(md5Hex(PARENT_PASSWORD))} where id = ${parentId}`);
}

/** Signs a parent in with its password; answers the parent token. */
export async function signInParent(t: TestApp, phoneNum: string, password = PARENT_PASSWORD): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: APP_PATHS.signIn, payload: { phoneNum, password: md5Hex(password) } });
  const body = response.json();
  if (body.code !== 200) throw new Error(`sign-in of ${phoneNum} failed: ${body.code} ${body.message}`);
  return body.data.token as string;
}

let keys = 0;

/** app.inject as a parent; a POST carries a fresh Idempotency-Key unless the request names one. */
export function asParent(t: TestApp, token: string, request: InjectOptions) {
  const key = request.method === 'POST' ? { 'idempotency-key': `test-key-${Date.now()}-${(keys += 1)}` } : {};
  return t.app.inject({ ...request, headers: { ...key, ...request.headers, authorization: `Bearer ${token}` } });
}

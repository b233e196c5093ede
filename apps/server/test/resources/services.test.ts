/** The engine's write services custom code calls: version bumped and checked, operation log of before → after. */
import { SchoolCharge, Terminal } from '@campus/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLog } from '../../src/db/schema/logs.js';
import { schoolCharges, terminals } from '../../src/db/schema/resources.js';
import { updateRecords } from '../../src/resources/engine/services.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const lastEntry = async (family: string, action: string) =>
  (await t.db.select().from(operationLog).where(and(eq(operationLog.family, family), eq(operationLog.action, action))).orderBy(desc(operationLog.id)).limit(1))[0];

describe('updateRecords', () => {
  it('sets the values, bumps the version and logs each column before → after', async () => {
    const [terminal] = await t.db.select({ id: terminals.id, version: terminals.version, remark: terminals.remark }).from(terminals).limit(1);
    const [changed] = await updateRecords(t.db, Terminal, [terminal!.id], { values: { remark: 'moved to gate 2' }, log: { userId: 1, action: 'serviceTest' } });
    expect(changed).toEqual({ id: terminal!.id, version: terminal!.version + 1 });
    const [stored] = await t.db.select({ remark: terminals.remark, version: terminals.version }).from(terminals).where(eq(terminals.id, terminal!.id));
    expect(stored).toEqual({ remark: 'moved to gate 2', version: terminal!.version + 1 });
    expect(await lastEntry(Terminal.name, 'serviceTest')).toMatchObject({ userId: 1, ids: [terminal!.id], changes: { remark: [terminal!.remark ?? null, 'moved to gate 2'] } });
  });

  it('answers 409 and changes nothing when the caller read another version', async () => {
    const [terminal] = await t.db.select({ id: terminals.id, version: terminals.version, remark: terminals.remark }).from(terminals).limit(1);
    await expect(
      updateRecords(t.db, Terminal, [terminal!.id], { values: { remark: 'stale write' }, expectedVersion: terminal!.version - 1, log: { userId: 1, action: 'staleTest' } }),
    ).rejects.toMatchObject({ httpStatus: 409 });
    const [stored] = await t.db.select({ remark: terminals.remark, version: terminals.version }).from(terminals).where(eq(terminals.id, terminal!.id));
    expect(stored).toEqual({ remark: terminal!.remark, version: terminal!.version });
    expect(await lastEntry(Terminal.name, 'staleTest')).toBeUndefined();
  });

  it('never logs a secret column', async () => {
    const [charge] = await t.db.select({ id: schoolCharges.id }).from(schoolCharges).limit(1);
    await updateRecords(t.db, SchoolCharge, [charge!.id], { values: { password: 'stored-hash' }, log: { userId: 1, action: 'secretTest' } });
    expect((await lastEntry(SchoolCharge.name, 'secretTest'))?.changes).toEqual({ password: ['***', '***'] });
  });

  it('leaves rows out that no longer match its condition, and logs nothing for them', async () => {
    const [terminal] = await t.db.select({ id: terminals.id, version: terminals.version }).from(terminals).limit(1);
    const answer = await updateRecords(t.db, Terminal, [terminal!.id], { values: { remark: 'never' }, where: eq(terminals.id, -1), log: { userId: 1, action: 'whereTest' } });
    expect(answer).toEqual([]);
    expect(await lastEntry(Terminal.name, 'whereTest')).toBeUndefined();
  });
});

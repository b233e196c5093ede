import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grants } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const MIGRATION = fileURLToPath(new URL('../../drizzle/0047_mall-buttons.sql', import.meta.url));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const buttonsOf = async (userType: string, frameId: number) =>
  (await t.db.select({ buttons: grants.buttons }).from(grants).where(and(eq(grants.subjectType, 'type'), eq(grants.userType, userType), eq(grants.frameId, frameId))))[0]?.buttons;

async function grant(userType: string, frameId: number, buttons: string[]) {
  await t.db.delete(grants).where(and(eq(grants.subjectType, 'type'), eq(grants.userType, userType), eq(grants.frameId, frameId)));
  await t.db.insert(grants).values({ subjectType: 'type', userType, frameId, buttons });
}

describe('0047_mall-buttons', () => {
  it("gives grants kept before the mall's new buttons the ones their old buttons imply, and leaves the others", async () => {
    // The buttons these pages had before issue 29, as kept grants hold them.
    await grant('company', 424, ['export', 'update', 'close']);
    await grant('company', 425, ['export', 'update', 'close']);
    await grant('company', 426, ['export', 'delete', 'state']);
    await grant('company', 706, ['export', 'refund']);
    await grant('seller', 425, ['export']);
    await grant('seller', 706, ['export', 'refund']);
    for (const statement of readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint')) await t.db.execute(sql.raw(statement));
    expect(await buttonsOf('company', 424)).toEqual(['export', 'update', 'close', 'add', 'delete']);
    expect(await buttonsOf('company', 425)).toEqual(['export', 'update', 'close', 'add', 'delete', 'refund']);
    expect(await buttonsOf('company', 426)).toEqual(['export', 'delete', 'state', 'add', 'update']);
    // Reading alone gains nothing, refund included, even where refundManage may refund.
    expect(await buttonsOf('seller', 425)).toEqual(['export']);
  });
});

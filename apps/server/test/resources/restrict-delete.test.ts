/**
 * A delete refused by a RESTRICT foreign key (pick-up persons keep their student) answers the
 * "still used" field error like any other reference, not 500 (found by the fuzz suite, issue 8).
 */
import { Student } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUpPersons, students } from '../../src/db/schema/resources.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { viewQuery } from './fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('BatchDelete of a row a RESTRICT key holds', () => {
  it('answers 400 "still used" and deletes nothing', async () => {
    const [held] = await t.db.select({ studentId: pickUpPersons.studentId }).from(pickUpPersons).limit(1);
    expect(held).toBeDefined();
    const response = await t.injectAs(await t.loginAs('admin'), { method: 'POST', url: `/api/Student/BatchDelete?${viewQuery(Student)}`, payload: [held!.studentId] });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, data: { errors: [{ path: 'id', key: 'validation.stillUsed' }] } });
    expect(await t.db.select({ id: students.id }).from(students).where(eq(students.id, Number(held!.studentId)))).toHaveLength(1);
  });
});

/** School rules: who owns a new school, the review's outcome, and the school's own admin account. */
import { School, USER_TYPE_LABELS, type WriteValuesOf } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/users.js';
import { badRequest, forbidden, msg, type FieldProblem } from '../platform/errors.js';
import { hashPassword } from '../platform/passwords.js';
import type { EngineContext } from './engine/context.js';
import { defineFamilyModule } from './engine/modules.js';
import { columnOf } from './engine/query.js';
import { rowAction } from './engine/row-actions.js';

/** Agent and seller references must point at accounts of that type. */
async function checkAccountTypes(ctx: EngineContext, values: WriteValuesOf<typeof School>): Promise<void> {
  const errors: FieldProblem[] = [];
  for (const [field, type] of [['agentId', 'agent'], ['sellerId', 'sales']] as const) {
    const id = values[field];
    if (id === undefined || id === null) continue;
    const [user] = await ctx.db.select({ type: users.type }).from(users).where(eq(users.id, id));
    if (user?.type !== type) errors.push({ path: field, ...msg('account.mustBeType', { type: USER_TYPE_LABELS[type] }) });
  }
  if (errors.length) throw badRequest(errors);
}

/** Schools in scope whose licence setting is still "not set" (licenseKeyRequired 0). */

export const schoolModule = defineFamilyModule(School, {
  pending: { badge: 'schoolLicenseUnset', where: (table) => eq(columnOf(table, 'licenseKeyRequired'), 0) },
  // Agents, their child accounts and sales people own what they create (the owner fields' `ownedBy`).
  async beforeWrite(ctx, { values }) {
    if (ctx.user.type === 'external') throw forbidden(msg('school.onlyOwners'));
    await checkAccountTypes(ctx, values);
    return values;
  },
  transitions: {
    // The review's outcome stays on the school; every step also lands in the state history.
    async Examine(_ctx, _row, input) {
      return { examineRemark: (input.remark as string | undefined) ?? null, examinedAt: new Date() };
    },
  },
  actions: {
    UpdateAdmin: rowAction('updateAdmin', async (_ctx, existing, input) => ({
      values: { adminLoginName: String(input.adminLoginName), adminPasswordHash: await hashPassword(String(input.adminPassword)) },
      answer: { id: existing.id },
    })),
  },
});

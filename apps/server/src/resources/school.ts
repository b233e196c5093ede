/** School rules: who owns a new school, the review's outcome, and the school's own admin account. */
import { School } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { forbidden, msg } from '../platform/errors.js';
import { hashPassword } from '../platform/passwords.js';
import { defineFamilyModule } from './engine/modules.js';
import { columnOf } from './engine/query.js';
import { rowAction } from './engine/row-actions.js';

/** Schools in scope whose licence setting is still "not set" (licenseKeyRequired 0). */

export const schoolModule = defineFamilyModule(School, {
  pending: { badge: 'schoolLicenseUnset', where: (table) => eq(columnOf(table, 'licenseKeyRequired'), 0) },
  // Agents, their child accounts and sales people own what they create (the owner fields' `ownedBy`);
  // the owners named are accounts of their type (the references' `optionsFilter` and `refusal`).
  beforeWrite(ctx, { values }) {
    if (ctx.user.type === 'external') throw forbidden(msg('school.onlyOwners'));
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

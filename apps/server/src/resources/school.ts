/** School rules: who may write schools, the licence badge, and the school's own admin account (the review's outcome is declared: `stamps`). */
import { School } from '@campus/contract';
import { forbidden, msg } from '../platform/errors.js';
import { hashPassword } from '../platform/passwords.js';
import { defineFamilyModule } from './engine/modules.js';
import { rowAction } from './engine/row-actions.js';

export const schoolModule = defineFamilyModule(School, {
  // Schools in scope whose licence setting is still "not set".
  pending: { badge: 'schoolLicenseUnset', where: { licenseKeyRequired: 0 } },
  // Agents, their child accounts and sales people own what they create (the owner fields' `ownedBy`);
  // the owners named are accounts of their type (the references' `optionsFilter` and `refusal`).
  beforeWrite(ctx, { values }) {
    if (ctx.user.type === 'external') throw forbidden(msg('school.onlyOwners'));
    return values;
  },
  actions: {
    UpdateAdmin: rowAction('updateAdmin', async (_ctx, existing, input) => ({
      values: { adminLoginName: String(input.adminLoginName), adminPasswordHash: await hashPassword(String(input.adminPassword)) },
      answer: { id: existing.id },
    })),
  },
});

/** School rules: the licence badge and the school's own admin account (who writes schools and the review's outcome are declared: `writers`, `stamps`). */
import { School } from '@campus/contract';
import { hashPassword } from '../platform/passwords.js';
import { defineFamilyModule } from './engine/modules.js';
import { rowAction } from './engine/row-actions.js';

export const schoolModule = defineFamilyModule(School, {
  // Schools in scope whose licence setting is still "not set".
  pending: { badge: 'schoolLicenseUnset', where: { licenseKeyRequired: 0 } },
  // Agents, their child accounts and sales people own what they create (the owner fields' `ownedBy`);
  // the owners named are accounts of their type (the references' `optionsFilter` and `refusal`).
  actions: {
    UpdateAdmin: rowAction('updateAdmin', async (_ctx, existing, input) => ({
      values: { adminLoginName: String(input.adminLoginName), adminPasswordHash: await hashPassword(String(input.adminPassword)) },
      answer: { id: existing.id },
    })),
  },
});

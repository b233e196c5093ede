/** What the school page changes in the generic page: one address column and the owner fields (classes are a tab of the drawer). */
import type { WebFamilyModule } from '../resource-overrides';
import { withSchoolAddressColumn } from './school-address-column';

/** Who owns and sells a school: an agent's own schools are always its own, so it never picks these. */
const OWNER_FIELDS = ['agentId', 'sellerId', 'salesTeamId'] as const;

export const schoolModule: WebFamilyModule = {
  family: 'School',
  overrides: {
    columns: withSchoolAddressColumn,
    hiddenFields: (probes) => (probes?.isAgent === false ? [] : OWNER_FIELDS),
  },
};

/** The sales team page: members and their levels are edited in a drawer of their own. */
import type { ResourceOverrides } from '../resource-overrides';
import { SalesTeamMembersDrawer } from './sales-team-members-drawer';

export const salesTeamOverrides: ResourceOverrides = {
  rowActions: [{ key: 'members', label: { zh: '成员', en: 'Members' }, Panel: SalesTeamMembersDrawer }],
};

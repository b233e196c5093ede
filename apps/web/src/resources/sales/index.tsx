/** The sales team page: members and their levels are edited in a drawer of their own. */
import { Suspense, lazy, type ComponentProps } from 'react';
import type { WebFamilyModule } from '../resource-overrides';

// The members drawer (its table and pickers) is fetched when it is first opened.
const MembersDrawerPart = lazy(() => import('./sales-team-members-drawer').then((module) => ({ default: module.SalesTeamMembersDrawer })));

function SalesTeamMembersDrawer(props: ComponentProps<typeof MembersDrawerPart>) {
  return (
    <Suspense fallback={null}>
      <MembersDrawerPart {...props} />
    </Suspense>
  );
}

export const salesTeamModule: WebFamilyModule = {
  family: 'SalesTeam',
  overrides: { rowActions: [{ key: 'members', label: 'rowAction.members', Panel: SalesTeamMembersDrawer }] },
};

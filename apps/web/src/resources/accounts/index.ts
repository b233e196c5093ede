/**
 * Account pages: fields a caller's probes do not allow are hidden (the server refuses them anyway).
 * Agents and their child accounts never choose an account type or a parent: the server decides both.
 */
import type { VisibilityProbes } from '@campus/contract';
import type { WebFamilyModule } from '../resource-overrides';

const isAgentSide = (probes: VisibilityProbes | undefined) => probes?.isAgent !== false;

export const externalUserModule: WebFamilyModule = {
  family: 'ExternalUser',
  overrides: {
    hiddenFields: (probes) => [
      ...(probes?.canSetAgentMerchantId ? [] : ['agentMktMrchId', 'agentMktMrchNm']),
      ...(isAgentSide(probes) ? ['type'] : []),
    ],
  },
};

export const childUserModule: WebFamilyModule = {
  family: 'ChildUser',
  overrides: { hiddenFields: (probes) => (isAgentSide(probes) ? ['parentId'] : []) },
};

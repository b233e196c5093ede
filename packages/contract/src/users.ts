/** The kinds of account and the visibility probes, as plain values: the schemas are in user-schemas.ts. */
export const USER_TYPES = ['company', 'sales', 'agent', 'external', 'child'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** Whether a value (a stored or received type) is one of the user types. */
export function isUserType(value: unknown): value is UserType {
  return (USER_TYPES as readonly unknown[]).includes(value);
}

export const USER_TYPE_LABELS: Record<UserType, { zh: string; en: string }> = {
  company: { zh: '公司员工', en: 'Company staff' },
  sales: { zh: '销售', en: 'Sales' },
  agent: { zh: '代理商', en: 'Agent' },
  external: { zh: '外部用户', en: 'External user' },
  child: { zh: '子账号', en: 'Child account' },
};

export const SELLER_POSITIONS = ['leader', 'member'] as const;
export type SellerPosition = (typeof SELLER_POSITIONS)[number];

/** Visibility probes (PRODUCT section 1): one call answers them all. */
export const PROBE_NAMES = [
  'canSetLicense',
  'canSetAgentMerchantId',
  'canUpdateParamConfigs',
  'canShowOffline',
  'canShowOrdinaryLicenseMenu',
  'canShowThirdPartyType',
  'canShowLeftSearchOptions',
  'isAgent',
  'hideAmountColumns',
  'canSetParamOptions',
] as const;
export type ProbeName = (typeof PROBE_NAMES)[number];
export type VisibilityProbes = Record<ProbeName, boolean>;

import { z } from 'zod';

export const USER_TYPES = ['company', 'sales', 'agent', 'external', 'child'] as const;
export const userTypeSchema = z.enum(USER_TYPES);
export type UserType = z.infer<typeof userTypeSchema>;

export const USER_TYPE_LABELS: Record<UserType, { zh: string; en: string }> = {
  company: { zh: '公司员工', en: 'Company staff' },
  sales: { zh: '销售', en: 'Sales' },
  agent: { zh: '代理商', en: 'Agent' },
  external: { zh: '外部用户', en: 'External user' },
  child: { zh: '子账号', en: 'Child account' },
};

export const SELLER_POSITIONS = ['leader', 'member'] as const;
export const sellerPositionSchema = z.enum(SELLER_POSITIONS);
export type SellerPosition = z.infer<typeof sellerPositionSchema>;

/** Visibility probes (PRODUCT section 1): one call answers them all. */
export const visibilityProbesSchema = z.object({
  canSetLicense: z.boolean(),
  canSetAgentMerchantId: z.boolean(),
  canUpdateParamConfigs: z.boolean(),
  canShowOffline: z.boolean(),
  canShowOrdinaryLicenseMenu: z.boolean(),
  canShowThirdPartyType: z.boolean(),
  canShowLeftSearchOptions: z.boolean(),
  isAgent: z.boolean(),
  hideAmountColumns: z.boolean(),
  canSetParamOptions: z.boolean(),
});
export type VisibilityProbes = z.infer<typeof visibilityProbesSchema>;
export const PROBE_NAMES = Object.keys(visibilityProbesSchema.shape) as (keyof VisibilityProbes)[];

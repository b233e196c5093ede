import { visibilityProbesSchema, type UserType, type VisibilityProbes } from '@campus/contract';
import { inArray } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { settings } from '../db/schema/index.js';

/** Probes a setting can change; isAgent is a fact of the user type, not a setting. */
export type ConfigurableProbes = Omit<VisibilityProbes, 'isAgent'>;

const NONE: ConfigurableProbes = {
  canSetLicense: false,
  canSetAgentMerchantId: false,
  canUpdateParamConfigs: false,
  canShowOffline: false,
  canShowOrdinaryLicenseMenu: false,
  canShowThirdPartyType: false,
  canShowLeftSearchOptions: false,
  hideAmountColumns: false,
  canSetParamOptions: false,
};

/**
 * Defaults per user type, seeded into settings 'probes.type.<type>' where a company admin can change
 * them. Amounts are hidden from external users and child accounts, who do not handle the money.
 */
export const DEFAULT_TYPE_PROBES: Record<UserType, ConfigurableProbes> = {
  company: {
    canSetLicense: true,
    canSetAgentMerchantId: true,
    canUpdateParamConfigs: true,
    canShowOffline: true,
    canShowOrdinaryLicenseMenu: true,
    canShowThirdPartyType: true,
    canShowLeftSearchOptions: true,
    hideAmountColumns: false,
    canSetParamOptions: true,
  },
  sales: { ...NONE, canShowOffline: true, canShowOrdinaryLicenseMenu: true, canShowLeftSearchOptions: true },
  agent: {
    ...NONE,
    canSetLicense: true,
    canUpdateParamConfigs: true,
    canShowOffline: true,
    canShowOrdinaryLicenseMenu: true,
    canShowLeftSearchOptions: true,
  },
  external: { ...NONE, canShowOffline: true, hideAmountColumns: true },
  child: { ...NONE, canShowOffline: true, canShowOrdinaryLicenseMenu: true, canShowLeftSearchOptions: true, hideAmountColumns: true },
};

/** Settings key of a user type's probes. */
export const probesTypeKey = (type: UserType) => `probes.type.${type}`;
/** Settings key of one user's probe overrides. */
export const probesUserKey = (userId: number) => `probes.user.${userId}`;

const probeOverridesSchema = visibilityProbesSchema.omit({ isAgent: true }).partial();

/** The caller's probes: type defaults, then the type's settings value, then the user's own. */
export function probesOf(user: { type: UserType }, typeValue: unknown, userValue: unknown): VisibilityProbes {
  const overridesOf = (value: unknown) => {
    const parsed = probeOverridesSchema.safeParse(value);
    return parsed.success ? parsed.data : {};
  };
  return {
    ...DEFAULT_TYPE_PROBES[user.type],
    ...overridesOf(typeValue),
    ...overridesOf(userValue),
    isAgent: user.type === 'agent' || user.type === 'child',
  };
}

/** A user's probes read on their own (the caller's come with its state: caller-state.ts). */
export async function getVisibilityProbes(db: Database, user: { id: number; type: UserType }): Promise<VisibilityProbes> {
  const typeKey = probesTypeKey(user.type);
  const userKey = probesUserKey(user.id);
  const rows = await db.select().from(settings).where(inArray(settings.key, [typeKey, userKey]));
  const valueOf = (key: string) => rows.find((row) => row.key === key)?.value;
  return probesOf(user, valueOf(typeKey), valueOf(userKey));
}

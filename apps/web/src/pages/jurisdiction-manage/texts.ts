/** The message keys of the configurable visibility probes' names and meanings (jurisdictionManage). */
import type { MessageKey } from '../../lib/i18n';

export const PROBE_LABELS: Record<string, { name: MessageKey; help: MessageKey }> = {
  canSetLicense: { name: 'probe.canSetLicense.name', help: 'probe.canSetLicense.help' },
  canSetAgentMerchantId: { name: 'probe.canSetAgentMerchantId.name', help: 'probe.canSetAgentMerchantId.help' },
  canUpdateParamConfigs: { name: 'probe.canUpdateParamConfigs.name', help: 'probe.canUpdateParamConfigs.help' },
  canShowOffline: { name: 'probe.canShowOffline.name', help: 'probe.canShowOffline.help' },
  canShowOrdinaryLicenseMenu: { name: 'probe.canShowOrdinaryLicenseMenu.name', help: 'probe.canShowOrdinaryLicenseMenu.help' },
  canShowThirdPartyType: { name: 'probe.canShowThirdPartyType.name', help: 'probe.canShowThirdPartyType.help' },
  canShowLeftSearchOptions: { name: 'probe.canShowLeftSearchOptions.name', help: 'probe.canShowLeftSearchOptions.help' },
  hideAmountColumns: { name: 'probe.hideAmountColumns.name', help: 'probe.hideAmountColumns.help' },
  canSetParamOptions: { name: 'probe.canSetParamOptions.name', help: 'probe.canSetParamOptions.help' },
};

/**
 * What the parameter-template page changes in the generic page: who may write templates
 * (`canUpdateParamConfigs`; who sets the thresholds is declared on them). The server refuses the
 * same calls; this only spares the caller buttons that would fail.
 */
import type { ButtonValue } from '@campus/contract';
import type { WebFamilyModule } from '../resource-overrides';

/** Every button of templateManage that changes a template or applies it. */
const WRITE_BUTTONS: readonly ButtonValue[] = ['add', 'update', 'delete'];

export const terminalConfigModule: WebFamilyModule = {
  family: 'TerminalConfig',
  overrides: { withheldButtons: (probes) => (probes?.canUpdateParamConfigs ? [] : WRITE_BUTTONS) },
};

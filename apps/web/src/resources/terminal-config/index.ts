/**
 * What the parameter-template page changes in the generic page: who may write templates
 * (`canUpdateParamConfigs`) and who may set their recognition thresholds (`canSetParamOptions`).
 * The server refuses the same calls and fields; this only spares the caller buttons that would fail.
 */
import { PARAM_OPTION_FIELDS, type ButtonValue } from '@campus/contract';
import type { WebFamilyModule } from '../resource-overrides';

/** Every button of templateManage that changes a template or applies it. */
const WRITE_BUTTONS: readonly ButtonValue[] = ['add', 'update', 'delete'];

export const terminalConfigModule: WebFamilyModule = {
  family: 'TerminalConfig',
  overrides: {
    withheldButtons: (probes) => (probes?.canUpdateParamConfigs ? [] : WRITE_BUTTONS),
    // Shown in the table to everyone; only those who may set them find them in the form.
    formHiddenFields: (_userType, probes) => (probes?.canSetParamOptions ? [] : PARAM_OPTION_FIELDS),
  },
};

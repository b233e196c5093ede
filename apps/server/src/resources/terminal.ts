/**
 * Terminal rules (its school and serial number follow its device, declared: a device without a school
 * cannot be a terminal, its records would belong to no one): online is computed from the last signed call at the time of
 * the request; a caller without `canShowOffline` sees online terminals only; IssueSecret creates or
 * rotates the device's secret and answers it once.
 */
import { Terminal, TerminalSettingsSetting } from '@campus/contract';
import { newTerminalSecret } from '../terminals/secrets.js';
import { defineFamilyModule } from './engine/modules.js';
import { rowAction } from './engine/row-actions.js';
import { nowOf, untilCondition } from './engine/until-fields.js';
import { terminalSettingsStore } from '../terminals/settings.js';
import { terminalOfflineSweepJob } from '../terminals/live-intake.js';

export const terminalModule = defineFamilyModule(Terminal, {
  settings: [{ def: TerminalSettingsSetting, store: terminalSettingsStore }],
  // Browsers are told when a terminal falls silent (docs/live.md): nothing else writes at that moment.
  recurringJobs: [terminalOfflineSweepJob],

  // Without canShowOffline only online terminals exist for the caller (PRODUCT section 2, equipmentManage).
  visibleWhere: (ctx, table) => (ctx.probes?.canShowOffline ? undefined : untilCondition(table, 'offlineAt', nowOf(ctx))),

  actions: {
    // First issue and rotation alike: the old secret stops verifying the moment this commits. The
    // sealer is read before the transaction: on the embedded database it would wait for the transaction's connection.
    async IssueSecret(ctx, id, input) {
      const sealer = await ctx.server.terminalSecrets();
      const secret = newTerminalSecret();
      return rowAction('IssueSecret', (inTransaction) => ({ values: { secretSealed: sealer.seal(secret), secretIssuedAt: inTransaction.clock.now() }, answer: { secret } }))(ctx, id, input);
    },
  },
});

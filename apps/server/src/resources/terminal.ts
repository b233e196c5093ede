/**
 * Terminal rules: its school follows its device (and a device without a school cannot be a terminal:
 * its records would belong to no one); online is computed from the last signed call at the time of
 * the request; a caller without `canShowOffline` sees online terminals only; IssueSecret creates or
 * rotates the device's secret and answers it once.
 */
import { Terminal, TerminalSettingsSetting } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { devices } from '../db/schema/index.js';
import { badRequest, msg } from '../platform/errors.js';
import { newTerminalSecret } from '../terminals/secrets.js';
import { defineFamilyModule } from './engine/modules.js';
import { columnOf } from './engine/query.js';
import { loadInScope } from './engine/write.js';
import { nowOf, onlineCondition, onlineFilter, withOnline } from './online-state.js';
import { updateRecords } from './engine/services.js';
import { terminalSettingsStore } from '../terminals/settings.js';
import { terminalOfflineSweepJob } from '../terminals/live-intake.js';

export const terminalModule = defineFamilyModule(Terminal, {
  settings: [{ def: TerminalSettingsSetting, store: terminalSettingsStore }],
  // Browsers are told when a terminal falls silent (docs/live.md): nothing else writes at that moment.
  recurringJobs: [terminalOfflineSweepJob],
  async beforeWrite(ctx, { op, values }) {
    if (op === 'update' && values.deviceId === undefined) return values;
    // schoolId was just copied from the device (follows): null means the device has no school yet.
    if (values.schoolId === null || values.schoolId === undefined) throw badRequest([{ path: 'deviceId', ...msg('terminal.deviceWithoutSchool') }]);
    const [device] = await ctx.db.select({ serialNumber: columnOf(devices, 'serialNumber') }).from(devices).where(eq(columnOf(devices, 'id'), Number(values.deviceId)));
    return { ...values, serialNumber: device?.serialNumber as string | undefined };
  },

  async afterRead(ctx, rows) {
    return withOnline(rows, ctx.clock.now());
  },

  computedFilters: { online: onlineFilter },

  // Without canShowOffline only online terminals exist for the caller (PRODUCT section 2, equipmentManage).
  visibleWhere: (ctx, table) => (ctx.probes?.canShowOffline ? undefined : onlineCondition(table, nowOf(ctx))),

  actions: {
    // First issue and rotation alike: the old secret stops verifying the moment this commits.
    async IssueSecret(ctx, id) {
      const secret = newTerminalSecret();
      const sealer = await ctx.server.terminalSecrets();
      const issuedAt = ctx.clock.now();
      await ctx.db.transaction(async (tx) => {
        const existing = await loadInScope({ ...ctx, db: tx }, tx, id, true);
        // The operation log records that a secret was issued, never the secret.
        await updateRecords(tx, Terminal, [id], {
          values: { secretSealed: sealer.seal(secret), secretIssuedAt: issuedAt },
          now: issuedAt,
          log: { userId: ctx.user.id, action: 'IssueSecret', changes: { secretIssuedAt: [existing.secretIssuedAt ?? null, issuedAt.toISOString()] } },
        });
      });
      return { secret };
    },
  },
});

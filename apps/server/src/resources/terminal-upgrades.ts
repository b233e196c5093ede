/**
 * Terminal versions and upgrade plans (a version's model is of its terminal type, its package's hash
 * and size come from the upload record: declared); a plan names its targets by school, model or list,
 * resolves them to one target line per device when released (in the releaser's scope, devices of the
 * version's terminal type only), and cancelling stops the devices still waiting.
 */
import {
  Device,
  TERMINAL_VERSION_PATTERN,
  TerminalAppUpgrade,
  TerminalAppVersion,
  type FieldDef,
  UPGRADE_TARGET_MODES,
  parseVersionList,
  type StoredRowOf,
} from '@campus/contract';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { deviceClasses, devices, terminalAppVersions, terminalUpgradeTargets } from '../db/schema/index.js';
import { badRequest, msg } from '../platform/errors.js';
import { refreshPlan, upgradeHandlers } from '../terminals/upgrades.js';
import type { EngineContext, Row } from './engine/context.js';
import { defineFamilyModule } from './engine/modules.js';
import { allConditions, scopeWhere } from './engine/query.js';
import { parseSerialNumbers } from './order.js';

const VERSION = new RegExp(TERMINAL_VERSION_PATTERN);
/** Target lines inserted per statement: well under PostgreSQL's 65,535 bind parameters. */
const INSERT_CHUNK = 1000;

export const terminalAppVersionModule = defineFamilyModule(TerminalAppVersion, {
  // The versions it upgrades from, kept as one comma-joined list (its model's type is declared: `agrees`).
  beforeWrite(_ctx, { values }) {
    if (typeof values.canUpdatedVersions !== 'string') return values;
    const listed = parseVersionList(values.canUpdatedVersions);
    const bad = listed.filter((version) => !VERSION.test(version));
    if (bad.length) throw badRequest([{ path: 'canUpdatedVersions', ...msg('upgrade.badVersions', { versions: bad }) }]);
    return { ...values, canUpdatedVersions: listed.join(',') };
  },
});

type StoredPlan = StoredRowOf<typeof TerminalAppUpgrade>;

/** The field naming a plan's targets: the one its mode requires (the declaration's `requiredWhen`). */
const targetFieldOf = (mode: number) =>
  Object.entries(TerminalAppUpgrade.fields as Record<string, FieldDef>).find(([, field]) => (field.requiredWhen?.in as readonly unknown[] | undefined)?.includes(mode))?.[0] ?? 'targetMode';

/**
 * The devices a plan targets, in the releaser's scope and of the version's terminal type (and model,
 * when the version names one). A listed serial number that is none of these is refused by name.
 */
async function resolveTargets(ctx: EngineContext, plan: StoredPlan): Promise<number[]> {
  const [version] = await ctx.db.select().from(terminalAppVersions).where(eq(terminalAppVersions.id, plan.versionId!));
  if (!version?.enabled) throw badRequest([{ path: 'versionId', ...msg('upgrade.versionDisabled') }]);
  const serials = parseSerialNumbers(plan.serialNumbers ?? '');
  const chosen: Record<number, SQL> = {
    [UPGRADE_TARGET_MODES.school]: eq(devices.schoolId, plan.targetSchoolId ?? 0),
    [UPGRADE_TARGET_MODES.model]: eq(devices.deviceClassCode, plan.targetDeviceClassCode ?? ''),
    [UPGRADE_TARGET_MODES.list]: inArray(devices.serialNumber, serials.length ? serials : ['']),
  };
  const found = await ctx.db
    .select({ id: devices.id, serialNumber: devices.serialNumber })
    .from(devices)
    .innerJoin(deviceClasses, eq(deviceClasses.code, devices.deviceClassCode))
    .where(
      allConditions(
        chosen[Number(plan.targetMode)],
        eq(deviceClasses.type, version.terminalType),
        version.deviceCode ? eq(devices.deviceClassCode, version.deviceCode) : undefined,
        scopeWhere({ ...ctx, def: Device }, devices),
      ),
    )
    .orderBy(asc(devices.id));
  if (Number(plan.targetMode) === UPGRADE_TARGET_MODES.list) {
    const reached = new Set(found.map((device) => String(device.serialNumber)));
    const missing = serials.filter((serial) => !reached.has(serial));
    if (missing.length) throw badRequest([{ path: 'serialNumbers', ...msg('upgrade.serialsNotTargetable', { serials: missing }) }]);
  }
  if (found.length === 0) throw badRequest([{ path: targetFieldOf(Number(plan.targetMode)), ...msg('upgrade.noTargets') }]);
  return found.map((device) => Number(device.id));
}

/** Release: one waiting target line per resolved device, written in the transition's transaction. */
async function release(ctx: EngineContext, plan: StoredPlan): Promise<Row> {
  const deviceIds = await resolveTargets(ctx, plan);
  for (let start = 0; start < deviceIds.length; start += INSERT_CHUNK) {
    await ctx.db.insert(terminalUpgradeTargets).values(
      deviceIds.slice(start, start + INSERT_CHUNK).map((deviceId, index) => ({
        terminalAppUpgradeId: plan.id,
        lineNo: start + index + 1,
        deviceId,
        state: 'WAITING',
      })),
    );
  }
  // The platform's clock, as the intake's hand-outs use: pacing and the plan page compare the two.
  const now = ctx.clock.now();
  await refreshPlan(ctx.db, plan.id, now);
  return { releasedAt: now };
}

/** Cancel: targets still waiting (handed out or not) are cancelled; devices mid-upgrade finish and report. */
async function cancel(ctx: EngineContext, plan: StoredPlan): Promise<Row> {
  await ctx.db
    .update(terminalUpgradeTargets)
    .set({ state: 'CANCELLED' })
    .where(and(eq(terminalUpgradeTargets.terminalAppUpgradeId, plan.id), eq(terminalUpgradeTargets.state, 'WAITING')));
  await refreshPlan(ctx.db, plan.id, ctx.clock.now());
  return {};
}

export const terminalAppUpgradeModule = defineFamilyModule(TerminalAppUpgrade, {
  transitions: { Release: release, Cancel: cancel },
  seams: { intake: { upgrades: upgradeHandlers } },
});

/**
 * The devices' side of upgrade plans (TerminalAppUpgrade): a heartbeat may be handed the package of
 * a released plan that lists the device, paced per plan, and the device then reports each step of
 * its upgrade. Both run inside the intake request's transaction (intake-handlers.ts), so what a
 * device is handed and what it reports commit with the rest of its call.
 */
import {
  UPGRADE_PLAN_STATES,
  UPGRADE_TARGET_STATE_OPTIONS,
  parseVersionList,
  type IntakeUpgrade,
  type Label,
  type UpgradeProgressBody,
  TerminalAppUpgrade,
} from '@campus/contract';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { terminalAppUpgrades, terminalAppVersions, terminalUpgradeTargets } from '../db/schema/resources.js';
import { stateHistory } from '../db/schema/workflow.js';
import { conflict, msg, notFound } from '../platform/errors.js';
import type { MediaUrlSigner } from '../platform/media-urls.js';
import type { Executor } from '../db/client.js';
import type { IntakeDevice, UpgradeHandlers } from './intake-handlers.js';
import { updateRecords } from '../resources/engine/services.js';

export type TargetState = (typeof UPGRADE_TARGET_STATE_OPTIONS)[number]['value'];

/** Targets not finished: waiting (handed out or not) or somewhere in the device's steps. */
export const UNFINISHED_TARGET_STATES: readonly TargetState[] = ['WAITING', 'DOWNLOADING', 'DOWNLOADED', 'VERIFIED', 'UPDATING'];

/**
 * The steps a device may report from each state: forward one step, or FAILED at any point. A
 * waiting target moves only once it was handed out.
 */
const NEXT_STEPS: Readonly<Record<TargetState, readonly TargetState[]>> = {
  WAITING: ['DOWNLOADING', 'FAILED'],
  DOWNLOADING: ['DOWNLOADED', 'FAILED'],
  DOWNLOADED: ['VERIFIED', 'FAILED'],
  VERIFIED: ['UPDATING', 'FAILED'],
  UPDATING: ['UPDATED', 'FAILED'],
  UPDATED: [],
  FAILED: [],
  CANCELLED: [],
};

/** Pacing looks back over this window: at most `devicesPerMinute` hand-outs of a plan fall in any one of them. */
const PACING_WINDOW_MS = 60_000;

const targets = terminalUpgradeTargets;
const plans = terminalAppUpgrades;
const versions = terminalAppVersions;

const stateLabel = (state: string): Label => UPGRADE_TARGET_STATE_OPTIONS.find((option) => option.value === state) ?? { zh: state, en: state };

/** A plan's targets counted by where they stand: the counts the plan page shows. */
export async function planCounts(db: Executor, planId: number) {
  const inFlight = sql.join(
    UNFINISHED_TARGET_STATES.filter((state) => state !== 'WAITING').map((state) => sql`${state}`),
    sql`, `,
  );
  const [counts] = await db
    .select({
      targetCount: sql<number>`count(*)::int`,
      waitingCount: sql<number>`(count(*) filter (where ${targets.state} = 'WAITING' and ${targets.handedAt} is null))::int`,
      inProgressCount: sql<number>`(count(*) filter (where ${targets.state} in (${inFlight}) or (${targets.state} = 'WAITING' and ${targets.handedAt} is not null)))::int`,
      updatedCount: sql<number>`(count(*) filter (where ${targets.state} = 'UPDATED'))::int`,
      failedCount: sql<number>`(count(*) filter (where ${targets.state} = 'FAILED'))::int`,
    })
    .from(targets)
    .where(eq(targets.terminalAppUpgradeId, planId));
  return counts!;
}

/**
 * Stores a plan's counts and completes a released or paused plan once every target is UPDATED or
 * FAILED (its history says the devices completed it: no user).
 */
export async function refreshPlan(db: Executor, planId: number, now: Date): Promise<void> {
  const counts = await planCounts(db, planId);
  await db.update(plans).set(counts).where(eq(plans.id, planId));
  if (counts.targetCount === 0 || counts.updatedCount + counts.failedCount < counts.targetCount) return;
  // One conditional update per state it may leave: atomic against a concurrent report, and the
  // timeline learns which state the plan completed from.
  for (const from of [UPGRADE_PLAN_STATES.released, UPGRADE_PLAN_STATES.paused]) {
    const [completed] = await updateRecords(db, TerminalAppUpgrade, [planId], { values: { state: UPGRADE_PLAN_STATES.completed, completedAt: now }, where: eq(plans.state, from), now });
    if (!completed) continue;
    // Stamped by the database like the engine's transitions, so the timeline keeps one clock; no user:
    // the devices completed it (the declaration's system transition `Complete`).
    await db.insert(stateHistory).values({
      family: 'TerminalAppUpgrade',
      rowId: planId,
      fromState: String(from),
      toState: String(UPGRADE_PLAN_STATES.completed),
      verb: 'Complete',
    });
    return;
  }
}

interface Candidate {
  targetId: number;
  planId: number;
  planState: number;
  devicesPerMinute: number;
  handedAt: Date | null;
  version: string;
  packageUrl: string;
  sha256: string | null;
  algorithm: IntakeUpgrade['algorithm'];
  canUpdatedVersions: string | null;
  isVersionEnabled: boolean | null;
}

function handOut(candidate: Candidate, signer: MediaUrlSigner): IntakeUpgrade {
  return {
    targetId: candidate.targetId,
    version: candidate.version,
    url: signer.sign(candidate.packageUrl),
    sha256: candidate.sha256 ?? '',
    algorithm: candidate.algorithm,
  };
}

/** The device's unfinished targets in released or paused plans, oldest plan first. */
async function candidatesOf(db: Executor, deviceId: number): Promise<Candidate[]> {
  const rows = await db
    .select({
      targetId: targets.id,
      planId: plans.id,
      planState: plans.state,
      devicesPerMinute: plans.devicesPerMinute,
      handedAt: targets.handedAt,
      version: versions.versionNumber,
      packageUrl: versions.packageUrl,
      sha256: versions.sha256,
      algorithm: versions.upgradeAlgorithm,
      canUpdatedVersions: versions.canUpdatedVersions,
      isVersionEnabled: versions.enabled,
    })
    .from(targets)
    .innerJoin(plans, eq(plans.id, targets.terminalAppUpgradeId))
    .innerJoin(versions, eq(versions.id, plans.versionId))
    .where(
      and(
        eq(targets.deviceId, deviceId),
        inArray(targets.state, [...UNFINISHED_TARGET_STATES]),
        inArray(plans.state, [UPGRADE_PLAN_STATES.released, UPGRADE_PLAN_STATES.paused]),
      ),
    )
    .orderBy(asc(plans.id));
  return rows as Candidate[];
}

/** Whether the plan may hand out one more package now; locks the plan so concurrent heartbeats count one at a time. */
async function paceAllows(db: Executor, candidate: Candidate, now: Date): Promise<boolean> {
  const [plan] = await db.select({ state: plans.state }).from(plans).where(eq(plans.id, candidate.planId)).for('update');
  if (plan?.state !== UPGRADE_PLAN_STATES.released) return false;
  const [recent] = await db
    .select({ handedOut: sql<number>`count(*)::int` })
    .from(targets)
    .where(and(eq(targets.terminalAppUpgradeId, candidate.planId), gt(targets.handedAt, new Date(now.getTime() - PACING_WINDOW_MS))));
  return (recent?.handedOut ?? 0) < candidate.devicesPerMinute;
}

/**
 * The package a heartbeat hands this device: first a target already handed out and unfinished (the
 * device retries: same target, no pacing), else the oldest released plan's waiting target whose
 * package updates from the device's firmware, when the plan's pace allows. A device already on the
 * plan's version counts as updated without a download.
 */
export async function pendingUpgradeFor(db: Executor, device: IntakeDevice, firmwareVersion: string, now: Date, signer: MediaUrlSigner): Promise<IntakeUpgrade | undefined> {
  const candidates = await candidatesOf(db, device.id);
  const retry = candidates.find((candidate) => candidate.handedAt !== null);
  if (retry) return handOut(retry, signer);
  for (const candidate of candidates) {
    // Pausing stops new hand-outs; a disabled version is handed to no one more.
    if (candidate.planState !== UPGRADE_PLAN_STATES.released || candidate.isVersionEnabled === false) continue;
    if (candidate.version === firmwareVersion) {
      await db.update(targets).set({ state: 'UPDATED', fromVersion: firmwareVersion, reportedAt: now }).where(eq(targets.id, candidate.targetId));
      await refreshPlan(db, candidate.planId, now);
      continue;
    }
    const updatesFrom = parseVersionList(candidate.canUpdatedVersions);
    if (updatesFrom.length > 0 && !updatesFrom.includes(firmwareVersion)) continue;
    if (!(await paceAllows(db, candidate, now))) continue;
    await db.update(targets).set({ handedAt: now, fromVersion: firmwareVersion }).where(eq(targets.id, candidate.targetId));
    await refreshPlan(db, candidate.planId, now);
    return handOut(candidate, signer);
  }
  return undefined;
}

/**
 * A device's report on its target: one step forward (DOWNLOADING → DOWNLOADED → VERIFIED →
 * UPDATING → UPDATED) or FAILED, never back or past a step (409); the same step again is a retry and
 * changes nothing. Another device's target, or one never handed out to it, is not found (404).
 */
export async function reportUpgradeProgress(db: Executor, device: IntakeDevice, body: UpgradeProgressBody, now: Date): Promise<void> {
  const [target] = await db
    .select({ id: targets.id, deviceId: targets.deviceId, state: targets.state, handedAt: targets.handedAt, planId: targets.terminalAppUpgradeId })
    .from(targets)
    .where(eq(targets.id, body.targetId))
    .for('update');
  if (!target || target.deviceId !== device.id || target.handedAt === null) throw notFound();
  const from = target.state as TargetState;
  if (from === body.state) return;
  if (!NEXT_STEPS[from]?.includes(body.state)) throw conflict(msg('upgrade.wrongStep', { from: stateLabel(from), to: stateLabel(body.state) }));
  await db
    .update(targets)
    .set({ state: body.state, reportedAt: now, message: body.message ?? null })
    .where(eq(targets.id, target.id));
  await refreshPlan(db, Number(target.planId), now);
}

/** The upgrade side of the heartbeat and of UpgradeProgress, installed at start (resources/families.ts). */
export const upgradeHandlers: UpgradeHandlers = { pendingUpgradeFor, reportUpgradeProgress };

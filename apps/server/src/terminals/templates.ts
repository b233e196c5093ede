/**
 * Parameter templates as commands use them: who may apply them (`canUpdateParamConfigs`), the
 * parameters an applyTemplate command carries, and queuing one command per device in one go.
 */
import { COMMAND_EXPIRES_AFTER_MS, TEMPLATE_PARAMETER_FIELDS, TERMINAL_COMMAND_STATES, TerminalConfig, type VisibilityProbes } from '@campus/contract';
import { eq, inArray } from 'drizzle-orm';
import { devices, terminalCommands, terminalConfigs, terminals } from '../db/schema/resources.js';
import { badRequest, conflict, forbidden, msg, notFound } from '../platform/errors.js';
import type { Executor } from '../db/client.js';
import { onCommandSucceeded } from './commands.js';

/** 403 unless the caller's probes let it change or apply templates. */
export function requireParamConfigs(ctx: { probes: VisibilityProbes }): void {
  if (!ctx.probes.canUpdateParamConfigs) throw forbidden(msg('terminalConfig.noParamConfigs'));
}

/**
 * The parameters of an enabled template, as an applyTemplate command carries them; 400 on `path` for
 * an unknown template, 409 for a disabled one.
 */
export async function templateParameters(db: Executor, templateId: number, path: string): Promise<Record<string, unknown>> {
  const [template] = await db.select().from(terminalConfigs).where(eq(terminalConfigs.id, templateId));
  if (!template) throw badRequest([{ path, ...msg('validation.referenceNotFound', { field: TerminalConfig.label }) }]);
  if (!template.enabled) throw conflict(msg('terminalConfig.disabled', { name: String(template.name) }));
  return Object.fromEntries(TEMPLATE_PARAMETER_FIELDS.map((field) => [field, template[field] ?? null]));
}

/**
 * Queues one applyTemplate command per device, in the caller's transaction; the devices are already
 * checked to lie in the caller's scope. Answers the commands' ids, in the order of `deviceIds`.
 */
export async function queueTemplateCommands(db: Executor, templateId: number, deviceIds: readonly number[], now: Date): Promise<number[]> {
  const payload = await templateParameters(db, templateId, 'id');
  const found = await db.select({ id: devices.id, schoolId: devices.schoolId }).from(devices).where(inArray(devices.id, [...deviceIds]));
  const schoolOf = new Map(found.map((device) => [device.id, device.schoolId]));
  if (schoolOf.size !== new Set(deviceIds).size) throw notFound();
  const expiresAt = new Date(now.getTime() + COMMAND_EXPIRES_AFTER_MS);
  const rows = [...new Set(deviceIds)].map((deviceId) => ({
    deviceId,
    schoolId: schoolOf.get(deviceId) ?? null,
    kind: 'applyTemplate',
    templateId,
    payload,
    state: TERMINAL_COMMAND_STATES.QUEUED,
    attempts: 0,
    expiresAt,
  }));
  const inserted = await db.insert(terminalCommands).values(rows).returning({ id: terminalCommands.id });
  return inserted.map((row) => Number(row.id));
}

// The terminal shows the template it runs: the last one whose command it reported as done.
onCommandSucceeded(async (db, command) => {
  if (command.kind !== 'applyTemplate' || command.templateId === null || command.templateId === undefined) return;
  await db.update(terminals).set({ templateId: Number(command.templateId) }).where(eq(terminals.deviceId, Number(command.deviceId)));
});

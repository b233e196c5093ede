/**
 * Queuing a remote command (TerminalCommand Add): it starts never handed out, expires a day after it
 * was queued, and carries the parameters it was queued with (an applyTemplate command: a copy of its
 * template's, so a later edit of the template changes no command already queued). Every later move
 * is the device's (terminals/commands.ts) or the operator's Cancel (the engine's transition).
 */
import { COMMAND_EXPIRES_AFTER_MS, TerminalCommand } from '@campus/contract';
import { badRequest, msg } from '../platform/errors.js';
import { requireParamConfigs, templateParameters } from '../terminals/templates.js';
import { defineFamilyModule } from './engine/modules.js';
import { commandExpiryJob, commandHandlers } from '../terminals/commands.js';

export const terminalCommandModule = defineFamilyModule(TerminalCommand, {
  dailyJobs: [commandExpiryJob],
  seams: { intake: { commands: commandHandlers } },
  async beforeWrite(ctx, { op, values, existing }) {
    const kind = values.kind ?? existing?.kind;
    const templateId = values.templateId === undefined ? existing?.templateId : values.templateId;
    let payload: Record<string, unknown> = {};
    if (kind === 'applyTemplate') {
      requireParamConfigs(ctx);
      if (templateId === null || templateId === undefined) throw badRequest([{ path: 'templateId', ...msg('terminalCommand.templateRequired') }]);
      payload = await templateParameters(ctx.db, Number(templateId), 'templateId');
    } else if (templateId !== null && templateId !== undefined) {
      throw badRequest([{ path: 'templateId', ...msg('terminalCommand.templateOnlyToApply') }]);
    }
    const queued = op === 'add' ? { attempts: 0, expiresAt: new Date(ctx.clock.now().getTime() + COMMAND_EXPIRES_AFTER_MS).toISOString() } : {};
    return { ...values, ...queued, payload };
  },
});

/**
 * Queuing a remote command (TerminalCommand Add): it starts never handed out, expires a day after it
 * was queued, and carries the parameters it was queued with. Every later move is the device's
 * (terminals/commands.ts) or the operator's Cancel (the engine's transition).
 */
import { COMMAND_EXPIRES_AFTER_MS, TerminalCommand } from '@campus/contract';
import { defineFamilyHooks } from './engine/hooks.js';

defineFamilyHooks(TerminalCommand, {
  beforeWrite(ctx, { op, values }) {
    if (op !== 'add') return values;
    return { ...values, attempts: 0, payload: {}, expiresAt: new Date(ctx.clock.now().getTime() + COMMAND_EXPIRES_AFTER_MS).toISOString() };
  },
});

/**
 * Parameter templates: the probes decide who edits what (declared: `writers`, `probe`), working hours
 * run forwards, and ApplyTemplate queues one applyTemplate command per chosen device, all or none.
 */
import { TerminalConfig, type FieldDef } from '@campus/contract';
import { badRequest, msg, type FieldProblem } from '../platform/errors.js';
import { queueTemplateCommands } from '../terminals/templates.js';
import { defineFamilyModule } from './engine/modules.js';
import { checkReferences, recordOperation } from './engine/write.js';

/** "07:00-12:00,13:30-18:00" → problems for ranges that end before they start (the pattern checked the form). */
function workingHoursProblems(value: unknown): FieldProblem[] {
  if (typeof value !== 'string') return [];
  const backwards = value.split(',').some((range) => {
    const [start, end] = range.split('-');
    return start! >= end!;
  });
  return backwards ? [{ path: 'workingHours', ...msg('terminalConfig.workingHoursOrder') }] : [];
}

const deviceIdsField = TerminalConfig.actions[0].fields.deviceIds as FieldDef;

export const terminalConfigModule = defineFamilyModule(TerminalConfig, {
  // Who changes or applies templates (`writers`) and who sets the thresholds (`probe: 'canSetParamOptions'`) are declared.
  beforeWrite(_ctx, { values }) {
    const problems = workingHoursProblems(values.workingHours);
    if (problems.length) throw badRequest(problems);
    return values;
  },
  actions: {
    /** One applyTemplate command per device, in one transaction: a device out of scope queues nothing (400 on deviceIds). */
    async ApplyTemplate(ctx, id, input) {
      const deviceIds = Array.isArray(input.deviceIds) ? input.deviceIds.map(Number) : [];
      if (deviceIds.length === 0) throw badRequest([{ path: 'deviceIds', ...msg('validation.required') }]);
      return ctx.db.transaction(async (tx) => {
        await checkReferences({ ...ctx, def: { ...ctx.def, fields: { deviceIds: deviceIdsField } } }, tx, { id, deviceIds });
        const commandIds = await queueTemplateCommands(tx, id, deviceIds, ctx.clock.now());
        await recordOperation(tx, ctx, 'applyTemplate', [id], { deviceIds: [null, deviceIds], commandIds: [null, commandIds] });
        return { commandIds };
      });
    },
  },
});

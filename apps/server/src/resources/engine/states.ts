/** The states of a workflow family: its state field's options, compared as text (the wire may carry either). */
import type { EnumOption, Label, ResourceDef, WorkflowDef } from '@campus/contract';

/** The options of a workflow's state field; a state field that is no enum is a programming error. */
export function stateOptionsOf(def: ResourceDef, workflow: WorkflowDef): readonly EnumOption[] {
  const field = def.fields[workflow.field];
  if (field?.kind !== 'enum') throw new Error(`${def.name}: workflow field '${workflow.field}' must be an enum field`);
  return field.options;
}

/** Whether two state values are the same state. */
export const sameState = (a: unknown, b: unknown): boolean => a !== null && a !== undefined && String(a) === String(b);

/** A state as messages name it: its label in both languages, or the raw value a stored row may hold. */
export function stateLabelOf(def: ResourceDef, value: unknown): Label | string {
  const option = stateOptionsOf(def, def.workflow!).find((candidate) => sameState(candidate.value, value));
  return option ? { zh: option.zh, en: option.en } : String(value);
}

/** Which workflow transitions a row offers: those whose `from` holds the row's current state. */
import { actionOffered, type ResourceDef, type StateValue, type TransitionDef } from '@campus/contract';
import type { RowActionItem } from '../list/row-actions';
import type { ResourceRow } from '../shared/resource-api';

/** Whether the transition may start from the row's state (states compared as text: the wire may carry either). */
export function startsFrom(transition: TransitionDef, row: ResourceRow, def: ResourceDef): boolean {
  const state = def.workflow ? row[def.workflow.field] : undefined;
  return state !== null && state !== undefined && transition.from.some((from) => String(from) === String(state));
}

/** Whether the row's state is among `states` (none declared: every state). */
function isInStates(def: ResourceDef, row: ResourceRow, states: readonly StateValue[] | undefined): boolean {
  return !states || !def.workflow || states.some((state) => String(state) === String(row[def.workflow!.field]));
}

/** Whether a row's values still allow editing it: always for a family without a workflow, else within `editableIn`. */
export function isRowEditable(def: ResourceDef, row: ResourceRow): boolean {
  return !def.workflow || isInStates(def, row, def.workflow.editableIn);
}

/**
 * The row's actions: the caller's allowed items without what its values do not allow — declared
 * actions outside their `offeredWhen`, transitions that do not start from its state, edit and delete
 * outside `editableIn` / `deletableIn`. Where edit is gone, History stays the way to the row's timeline.
 */
export function rowActionsFor(def: ResourceDef, items: readonly RowActionItem[], row: ResourceRow): readonly RowActionItem[] {
  // Declared actions the row's values rule out (`offeredWhen`: an alert already acknowledged).
  items = items.filter((item) => !('spec' in item) || item.spec.kind !== 'action' || actionOffered(item.spec.action, row));
  if (!def.workflow) return items;
  const isEditable = isRowEditable(def, row);
  const offersEdit = isEditable && items.some((item) => 'spec' in item && item.spec.kind === 'edit');
  return items.filter((item) => {
    if (!('spec' in item)) return true;
    const { spec } = item;
    if (spec.kind === 'transition') return startsFrom(spec.transition, row, def);
    if (spec.kind === 'edit') return isEditable;
    if (spec.kind === 'delete') return isInStates(def, row, def.workflow!.deletableIn);
    if (spec.kind === 'history') return !offersEdit;
    return true;
  });
}

/** A transition runs through a form when it asks for fields or the refund password; otherwise straight away. */
export function needsForm(transition: TransitionDef): boolean {
  return Object.keys(transition.fields ?? {}).length > 0 || transition.reauth !== undefined;
}

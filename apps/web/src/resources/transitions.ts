/** Which workflow transitions a row offers: those whose `from` holds the row's current state. */
import type { ResourceDef, TransitionDef } from '@campus/contract';
import type { RowActionItem } from './row-actions';
import type { ResourceRow } from './resource-api';

/** Whether the transition may start from the row's state (states compared as text: the wire may carry either). */
export function startsFrom(transition: TransitionDef, row: ResourceRow, def: ResourceDef): boolean {
  const state = def.workflow ? row[def.workflow.field] : undefined;
  return state !== null && state !== undefined && transition.from.some((from) => String(from) === String(state));
}

/** The row's actions: the caller's allowed items without the transitions its state does not allow. */
export function rowActionsFor(def: ResourceDef, items: readonly RowActionItem[], row: ResourceRow): readonly RowActionItem[] {
  if (!def.workflow) return items;
  return items.filter((item) => !('spec' in item) || item.spec.kind !== 'transition' || startsFrom(item.spec.transition, row, def));
}

/** A transition runs through a form when it asks for fields or the refund password; otherwise straight away. */
export function needsForm(transition: TransitionDef): boolean {
  return Object.keys(transition.fields ?? {}).length > 0 || transition.reauth !== undefined;
}

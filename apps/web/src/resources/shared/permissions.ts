/** Which toolbar and row buttons a caller gets: a button whose permission value is absent is removed. */
import type { ActionDef, ButtonValue, ResourceDef, ToggleDef, TransitionDef } from '@campus/contract';

export interface ToolbarButtons {
  add: boolean;
  batchDelete: boolean;
  export: boolean;
  /** Excel import: the family declares it and the caller holds `import`. */
  import: boolean;
  /** Toggles switchable from the row and for the selection. */
  toggles: readonly ToggleDef[];
  /** Workflow transitions run on the selection at once (`TransitionDef.batch`). */
  batchTransitions: readonly TransitionDef[];
}

export type RowActionSpec =
  | { kind: 'edit' }
  | { kind: 'delete' }
  | { kind: 'action'; action: ActionDef }
  /** A workflow transition: offered only on rows whose state it starts from (see transitions.ts). */
  | { kind: 'transition'; transition: TransitionDef }
  /** The row's state history, for callers who cannot open the edit drawer that shows it. */
  | { kind: 'history' };

type Can = (button: ButtonValue) => boolean;

export function allowedToolbar(def: ResourceDef, can: Can): ToolbarButtons {
  return {
    add: can('add'),
    batchDelete: can('delete'),
    export: can('export'),
    import: def.import !== undefined && can('import'),
    toggles: (def.toggles ?? []).filter((toggle) => can(toggle.button)),
    // A batch transition asking a required field would need a form per batch: the row's action serves it.
    batchTransitions: (def.workflow?.transitions ?? []).filter((transition) => transition.batch && can(transition.button) && !Object.values(transition.fields ?? {}).some((field) => field.required)),
  };
}

/** Row buttons in their display order: edit, the workflow's transitions, the declared actions, history, delete. */
export function allowedRowActions(def: ResourceDef, can: Can): RowActionSpec[] {
  const specs: RowActionSpec[] = [];
  if (can('update')) specs.push({ kind: 'edit' });
  for (const transition of def.workflow?.transitions ?? []) if (can(transition.button)) specs.push({ kind: 'transition', transition });
  for (const action of def.actions ?? []) if (can(action.button)) specs.push({ kind: 'action', action });
  // History opens the timeline where the edit drawer (which shows it) is not offered; rowActionsFor decides per row.
  if (def.workflow && (!can('update') || def.workflow.editableIn)) specs.push({ kind: 'history' });
  if (can('delete')) specs.push({ kind: 'delete' });
  return specs;
}

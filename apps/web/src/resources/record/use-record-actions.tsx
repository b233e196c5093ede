/**
 * What a user does to one record of a list: open it to add or edit, run its declared actions and
 * workflow transitions, see its history, delete it, or open a family's extra panel. The row buttons
 * (`items`) and the open record (`drawer`) live here; `element` renders the open modal or panel once.
 */
import type { ActionDef } from '@campus/contract';
import { App } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useLocale, useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import { ActionModal } from '../form/deferred-parts';
import { RevealedValueModal, revealedValueOf, type RevealedValue } from './revealed-value-modal';
import { labelText } from '../shared/labels';
import { allowedRowActions } from '../shared/permissions';
import type { DrawerTarget } from './record-drawer';
import type { ResourceRow } from '../shared/resource-api';
import type { ExtraRowAction } from '../resource-overrides';
import type { RowActionItem } from '../list/row-actions';
import type { ResourceList } from '../list/use-resource-list';
import { useWorkflowActions } from './workflow-actions';

const NO_EXTRA_ACTIONS: readonly ExtraRowAction[] = [];

export interface RecordActions {
  /** The row buttons the caller may press, in display order (a row shows those its state allows). */
  items: readonly RowActionItem[];
  run: (item: RowActionItem, row: ResourceRow) => void;
  /** The record open in the drawer, if any. */
  drawer: DrawerTarget | null;
  openAdd: () => void;
  /** Opens a row read-only (its first cell is the link). */
  openView: (row: ResourceRow) => void;
  /** Whether the caller may edit rows: the read-only view then offers Edit. */
  canEdit: boolean;
  /** From the read-only view to the form of the same row. */
  openEdit: (row: ResourceRow) => void;
  closeDrawer: () => void;
  /** The open action form, extra panel, transition form or history: render once in the page. */
  element: ReactNode;
}

/** @example const actions = useRecordActions(list, salesTeamOverrides.rowActions); <ResourceTable list={list} actions={actions} … /> */
export function useRecordActions(list: ResourceList, extraActions: readonly ExtraRowAction[] = NO_EXTRA_ACTIONS): RecordActions {
  const t = useT();
  const locale = useLocale();
  const { modal } = App.useApp();
  const { def, api, can, frame, rowTitle } = list;
  const [drawer, setDrawer] = useState<DrawerTarget | null>(null);
  const [runningAction, setRunningAction] = useState<{ action: ActionDef; row: ResourceRow } | null>(null);
  const [openPanel, setOpenPanel] = useState<{ extra: ExtraRowAction; row: ResourceRow } | null>(null);
  const [revealed, setRevealed] = useState<RevealedValue | null>(null);
  /** After an action: the value it answers once, if it declares one, then the list reads again. */
  const afterAction = (action: ActionDef, row: ResourceRow, answer: unknown) => {
    const value = revealedValueOf(action, answer);
    if (action.reveal && value !== undefined) setRevealed({ reveal: action.reveal, value, rowTitle: rowTitle(row) });
    void list.refresh();
  };
  const workflow = useWorkflowActions({ def, api, rowTitle, onChanged: () => void list.refresh() });

  const items = useMemo<RowActionItem[]>(() => {
    const specs = allowedRowActions(def, can).map((spec) => ({ spec }));
    const extras = extraActions.filter((extra) => !extra.button || can(extra.button)).map((extra) => ({ extra }));
    // Extra actions sit before delete, which stays last.
    const deleteIndex = specs.findIndex((item) => item.spec.kind === 'delete');
    return deleteIndex < 0 ? [...specs, ...extras] : [...specs.slice(0, deleteIndex), ...extras, ...specs.slice(deleteIndex)];
  }, [def, can, extraActions]);

  const run = (item: RowActionItem, row: ResourceRow) => {
    if ('extra' in item) return setOpenPanel({ extra: item.extra, row });
    const { spec } = item;
    if (spec.kind === 'edit') return setDrawer({ mode: 'edit', row });
    if (spec.kind === 'delete') return list.confirmDelete([row.id], t('resource.deleteOneConfirm', { family: list.familyLabel, title: rowTitle(row) }));
    if (spec.kind === 'transition') return workflow.runTransition(spec.transition, row);
    if (spec.kind === 'history') return workflow.showHistory(row);
    const { action } = spec;
    if (action.fields && Object.keys(action.fields).length > 0) return setRunningAction({ action, row });
    const runNow = async () => {
      const answer = await api.runAction(action.verb, { id: row.id });
      showToast('success', t('resource.actionDone', { action: labelText(action.label, locale) }));
      afterAction(action, row, answer);
    };
    // `confirmWhenSet`: ask only when the row holds that value (rotating a secret, not issuing the first).
    const asks = action.confirm && (!action.confirmWhenSet || (row[action.confirmWhenSet] !== null && row[action.confirmWhenSet] !== undefined));
    if (!action.confirm || !asks) return void runNow().catch(() => undefined);
    modal.confirm({ title: labelText(action.label, locale), content: labelText(action.confirm, locale), onOk: runNow });
  };

  const element = (
    <>
      {runningAction && (
        <ActionModal
          api={api}
          action={runningAction.action}
          row={runningAction.row}
          rowTitle={rowTitle(runningAction.row)}
          onClose={() => setRunningAction(null)}
          onDone={(answer) => {
            setRunningAction(null);
            afterAction(runningAction.action, runningAction.row, answer);
          }}
        />
      )}
      {revealed && <RevealedValueModal revealed={revealed} onClose={() => setRevealed(null)} />}
      {openPanel && <openPanel.extra.Panel row={openPanel.row} frame={frame} onClose={() => setOpenPanel(null)} />}
      {workflow.element}
    </>
  );

  const canEdit = items.some((item) => 'spec' in item && item.spec.kind === 'edit');
  return {
    items,
    run,
    drawer,
    openAdd: () => setDrawer({ mode: 'add' }),
    openView: (row) => setDrawer({ mode: 'view', row }),
    canEdit,
    openEdit: (row) => setDrawer({ mode: 'edit', row }),
    closeDrawer: () => setDrawer(null),
    element,
  };
}

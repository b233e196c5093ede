/**
 * Row actions of a workflow family: a transition runs at once (after its confirmation) or through a
 * form when it has fields or asks for the refund password; "history" opens the row's timeline
 * read-only. A refused transition (409, wrong state) is shown by the request client with the
 * server's message naming the state.
 */
import type { TransitionDef, ResourceDef } from '@campus/contract';
import { App, Drawer } from 'antd';
import { useState, type ReactNode } from 'react';
import { useWindowWidth } from '../../hooks/use-window-width';
import { useLocale, useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import { ActionModal } from '../form/deferred-parts';
import { labelText } from '../shared/labels';
import { ReadOnlyLines, readOnlyLinesOf } from './read-only-lines';
import type { ResourceApi, ResourceRow } from '../shared/resource-api';
import { StateTimeline } from '../form/deferred-parts';
import { needsForm } from './transitions';

interface WorkflowActionsOptions {
  def: ResourceDef;
  api: ResourceApi;
  rowTitle: (row: ResourceRow) => string;
  /** Reloads the list (and open timelines) after a transition. */
  onChanged: () => void;
}

export interface WorkflowActions {
  runTransition: (transition: TransitionDef, row: ResourceRow) => void;
  showHistory: (row: ResourceRow) => void;
  /** The open form or history drawer, to render once in the page. */
  element: ReactNode;
}

export function useWorkflowActions({ def, api, rowTitle, onChanged }: WorkflowActionsOptions): WorkflowActions {
  const t = useT();
  const locale = useLocale();
  const { modal } = App.useApp();
  const windowWidth = useWindowWidth();
  const [formFor, setFormFor] = useState<{ transition: TransitionDef; row: ResourceRow } | null>(null);
  const [historyOf, setHistoryOf] = useState<ResourceRow | null>(null);

  const runTransition = (transition: TransitionDef, row: ResourceRow) => {
    const name = labelText(transition.label, locale);
    // A failure has been shown by the request client; the row stays as the server left it.
    const start = async () => {
      if (needsForm(transition)) return setFormFor({ transition, row });
      await api.runAction(transition.verb, { id: row.id, version: row.version });
      showToast('success', t('resource.actionDone', { action: name }));
      onChanged();
    };
    if (!transition.confirm) return void start().catch(() => undefined);
    modal.confirm({
      title: `${name} · ${rowTitle(row)}`,
      content: labelText(transition.confirm, locale),
      okButtonProps: { danger: transition.danger === true },
      cancelText: t('common.cancel'),
      onOk: () => start().catch(() => undefined),
    });
  };

  const hasReadOnlyLines = readOnlyLinesOf(def).length > 0;
  const element = (
    <>
      {formFor && (
        <ActionModal
          api={api}
          action={formFor.transition}
          row={formFor.row}
          rowTitle={rowTitle(formFor.row)}
          onClose={() => setFormFor(null)}
          onDone={() => {
            setFormFor(null);
            onChanged();
          }}
        />
      )}
      {historyOf && (
        <Drawer open title={`${t('workflow.history')} · ${rowTitle(historyOf)}`} size={Math.min(hasReadOnlyLines ? 960 : 520, windowWidth - 48)} onClose={() => setHistoryOf(null)} destroyOnHidden>
          {/* A row whose lines the server writes (a plan's devices) shows their progress above its timeline. */}
          {hasReadOnlyLines && <ReadOnlyLines def={def} api={api} rowId={historyOf.id} />}
          <StateTimeline def={def} api={api} rowId={historyOf.id} />
        </Drawer>
      )}
    </>
  );
  return { runTransition, showHistory: setHistoryOf, element };
}

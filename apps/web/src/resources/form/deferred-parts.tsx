/**
 * The parts of a resource page that show only after a click — the record drawers, an action's form,
 * a workflow's timeline — each downloaded when first needed: a list's first bytes hold its filters and
 * table, not every field control (date pickers, uploads, numbers, the rich-text editor) of the forms.
 * `prefetchRecordParts` fetches them as soon as the pointer reaches the page, so the drawer is
 * usually there by the time of the click.
 */
import { Suspense, lazy, type ComponentProps } from 'react';

const loadRecordDrawer = () => import('../record/record-drawer');
const loadRecordView = () => import('../record/record-view');
const loadActionModal = () => import('../record/action-modal');

const RecordDrawerPart = lazy(() => loadRecordDrawer().then((module) => ({ default: module.RecordDrawer })));
const RecordViewPart = lazy(() => loadRecordView().then((module) => ({ default: module.RecordView })));
const StateTimelinePart = lazy(() => import('../record/state-timeline').then((module) => ({ default: module.StateTimeline })));
const ActionModalPart = lazy(() => loadActionModal().then((module) => ({ default: module.ActionModal })));

let isPrefetched = false;

/** Starts downloading the drawers and the action form (once per page load; failures are left to the click). */
export function prefetchRecordParts(): void {
  if (isPrefetched) return;
  isPrefetched = true;
  void Promise.all([loadRecordDrawer(), loadRecordView(), loadActionModal()]).catch(() => {
    isPrefetched = false;
  });
}

export function RecordDrawer(props: ComponentProps<typeof RecordDrawerPart>) {
  return (
    <Suspense fallback={null}>
      <RecordDrawerPart {...props} />
    </Suspense>
  );
}

export function RecordView(props: ComponentProps<typeof RecordViewPart>) {
  return (
    <Suspense fallback={null}>
      <RecordViewPart {...props} />
    </Suspense>
  );
}

export function ActionModal(props: ComponentProps<typeof ActionModalPart>) {
  return (
    <Suspense fallback={null}>
      <ActionModalPart {...props} />
    </Suspense>
  );
}

/** A workflow row's timeline (antd's Steps and Timeline), in the history drawer of workflow-actions.tsx. */
export function StateTimeline(props: ComponentProps<typeof StateTimelinePart>) {
  return (
    <Suspense fallback={null}>
      <StateTimelinePart {...props} />
    </Suspense>
  );
}

/**
 * The generic resource page, composed of parts a family can recompose (react-admin's list /
 * filters / toolbar / datagrid): the list controller (`useResourceList`), the filters, the toolbar,
 * the table with its row actions (`useRecordActions`), and the record drawer with the child families
 * as tabs. A family whose page differs in more than `ResourceOverrides` can say builds its own page
 * from the same parts.
 *
 * @example
 * // A page with a button of its own in the toolbar and no filters:
 * function DevicePage({ def, frame }: ResourcePageProps) {
 *   const list = useResourceList({ def, frame });
 *   const hidden = useHiddenFields(def, frame, list.fixedValues);
 *   const columns = useResourceColumns(list, hidden.listed);
 *   const settings = useTableSettings(preferencePageOf(frame, def.name));
 *   const actions = useRecordActions(list);
 *   return (
 *     <Card size="small">
 *       <ResourceToolbar list={list} onAdd={actions.openAdd} columns={columns} settings={settings}><ImportButton /></ResourceToolbar>
 *       <ResourceTable list={list} columns={columns} settings={settings} actions={actions} />
 *       {actions.element}
 *     </Card>
 *   );
 * }
 */
import { childFamiliesOf, familiesOfFrame, isLogFamily, preferencePageOf, type ResourceDef } from '@campus/contract';
import { Card, Spin, type TabsProps } from 'antd';
import { Suspense, lazy, useMemo } from 'react';
import { useVisibilityProbes } from '../../hooks/use-visibility-probes';
import { useLocale, type Locale } from '../../lib/i18n';
import { labelText } from '../shared/labels';
import { RecordDrawer, RecordView, prefetchRecordParts } from '../form/deferred-parts';
import { isRowEditable } from '../record/transitions';
import type { ResourceRow } from '../shared/resource-api';
import { ResourceFilters } from './resource-filters';
import type { ResourceOverrides } from '../resource-overrides';
import { ResourceTable } from './resource-table';
import { ResourceToolbar } from './resource-toolbar';
import { useHiddenFields } from './use-hidden-fields';
import { useRecordActions } from '../record/use-record-actions';
import { useResourceColumns } from './use-resource-columns';
import { useInitialListState, useListAddress } from './use-list-address';
import { useResourceList, type FixedValues } from './use-resource-list';
import { useTableSettings } from './use-table-settings';
import './resource-page.css';

const LogPage = lazy(() => import('../log/log-page').then((module) => ({ default: module.LogPage })));

export interface ResourcePageProps {
  def: ResourceDef;
  /** The page (view) the family is shown on: its frame's route name, sent as `?view=`. */
  frame: string;
  overrides?: ResourceOverrides;
  /**
   * Values the surrounding page fixes, e.g. the school whose classes a drawer lists: sent with every
   * search, preset on add, and hidden from filters, columns and forms.
   */
  fixedValues?: FixedValues;
  /** Shown inside a drawer or modal rather than as a tab's page: a narrower filter bar. */
  isEmbedded?: boolean;
}

/**
 * Whether a list is its page's own: the first family of a frame shown as a tab's page. Only such a
 * list keeps its state in the address bar and its settings and views on the server; a drawer's
 * child list lives as long as the drawer.
 */
export function isPagesOwnList(def: ResourceDef, frame: string, isEmbedded: boolean, fixedValues?: FixedValues): boolean {
  return !isEmbedded && fixedValues === undefined && familiesOfFrame(frame)[0]?.name === def.name;
}

export function ResourcePage({ def, frame, overrides, fixedValues, isEmbedded = false }: ResourcePageProps) {
  const locale = useLocale();
  const probes = useVisibilityProbes();
  const withheldButtons = useMemo(() => overrides?.withheldButtons?.(probes), [overrides, probes]);
  const isOwnList = isPagesOwnList(def, frame, isEmbedded, fixedValues);
  // Settings are kept per page for every list of a tab (a second family too), not in drawers.
  const preferencePage = isEmbedded || fixedValues !== undefined ? null : preferencePageOf(frame, def.name);
  const settings = useTableSettings(preferencePage);
  const initialState = useInitialListState(def, isOwnList);
  const list = useResourceList({
    def,
    frame,
    fixedValues,
    refreshSeconds: overrides?.refreshSeconds,
    withheldButtons,
    initialState,
    savedPageSize: settings.pageSize,
    onPageSizeChange: settings.setPageSize,
    isReady: settings.isLoaded,
  });
  const hidden = useHiddenFields(def, frame, list.fixedValues, overrides);
  useListAddress({ isEnabled: isOwnList, def, hiddenFields: hidden.listed, state: list.addressState, restore: list.restore });
  const columns = useResourceColumns(list, hidden.listed, overrides?.columns);
  const actions = useRecordActions(list, overrides?.rowActions);
  const { drawer } = actions;
  return (
    // The drawers and forms download when the pointer first reaches the page (deferred-parts.tsx).
    <div className="page-stack resource-page" onPointerOver={prefetchRecordParts}>
      <ResourceFilters list={list} hiddenFields={hidden.listed} isEmbedded={isEmbedded} preferencePage={preferencePage} />
      <Card size="small">
        <ResourceToolbar list={list} onAdd={actions.openAdd} columns={columns} settings={settings} />
        <ResourceTable list={list} columns={columns} settings={settings} actions={actions} />
      </Card>
      {drawer?.mode === 'view' && (
        <RecordView
          key={`view:${drawer.row.id}`}
          def={def}
          api={list.api}
          row={drawer.row}
          hiddenFields={hidden.listed}
          extraTabs={childTabsOf(def, drawer.row, frame, locale)}
          onEdit={actions.canEdit && isRowEditable(def, drawer.row) ? () => actions.openEdit(drawer.row) : undefined}
          onClose={actions.closeDrawer}
        />
      )}
      {drawer && drawer.mode !== 'view' && (
        <RecordDrawer
          key={drawer.mode === 'edit' ? `edit:${drawer.row.id}` : 'add'}
          def={def}
          api={list.api}
          target={drawer}
          hiddenFields={hidden.form}
          presetValues={list.fixedValues}
          extraTabs={drawer.mode === 'edit' ? childTabsOf(def, drawer.row, frame, locale) : undefined}
          onClose={actions.closeDrawer}
          onSaved={() => {
            actions.closeDrawer();
            void list.refresh();
          }}
        />
      )}
      {actions.element}
      {list.exporter.progress}
    </div>
  );
}

/** The value a child's parent field holds for this row: its id, or the parent field the child names (`parent.key`). */
function parentKeyOf(child: ResourceDef, row: ResourceRow): number {
  const key = child.parent?.key;
  return key ? Number(row[key]) : row.id;
}

/**
 * The child families of a row (`parent` in their declaration) as tabs of its drawer: each the generic
 * page fixed to that row, on the parent's page, so the parent page's buttons govern it.
 */
function childTabsOf(def: ResourceDef, row: ResourceRow, frame: string, locale: Locale): TabsProps['items'] {
  return childFamiliesOf(def).map((child) => {
    const fixedValues = { [child.parent!.field]: parentKeyOf(child, row) };
    return {
      key: child.name,
      label: labelText(child.label, locale),
      // A log family (a parent's notice receipts) is paged by key on its own page kind, downloaded when its tab first shows.
      children: isLogFamily(child) ? (
        <Suspense fallback={<Spin />}>
          <LogPage def={child} frame={frame} fixedValues={fixedValues} isEmbedded />
        </Suspense>
      ) : (
        <ResourcePage def={child} frame={frame} fixedValues={fixedValues} isEmbedded />
      ),
    };
  });
}

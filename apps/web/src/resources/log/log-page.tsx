/**
 * The page of a log family (`mode: 'log'`): a time range preset to its declared window (7 days by default), the family's
 * filters, the rows newest first paged by key (previous / next, no page numbers to jump to: a log
 * has no count), a read-only record drawer and the export. No add, edit or delete; a family with a
 * declared hide flag offers Hide on each row to callers holding the `hide` button, and its declared
 * actions without a form (Acknowledge) likewise.
 */
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { actionOffered, familiesOfFrame, type ResourceDef } from '@campus/contract';
import { Button, Card, Col, DatePicker, Form, Popconfirm, Row, Select, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { usePermission } from '../../hooks/use-permission';
import { useLocale, useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import { buildColumns } from '../list/columns';
import { formatDateTime } from '../shared/field-values';
import { FilterBar, filterLabelWidth, visibleFiltersOf } from '../list/filter-bar';
import { buildFilterPayload } from '../list/filter-payload';
import { labelText } from '../shared/labels';
import { LogDrawer } from './log-drawer';
import { lastDays, type LogRange } from './log-range';
import { resourceApi, type ResourceRow } from '../shared/resource-api';
import { ListTable } from '../list/list-table';
import { ExportButton, ListToolbar } from '../list/resource-toolbar';
import type { LogParts } from '../resource-overrides';
import { useExport } from '../list/use-export';
import { useInitialListState, useListAddress } from '../list/use-list-address';
import { useLogList } from './use-log-list';
import type { FixedValues } from '../list/use-resource-list';
import '../list/resource-page.css';

const PAGE_SIZE_OPTIONS = [10, 20, 50, 100, 200];
const NO_VALUES: FixedValues = {};

export interface LogPageProps {
  def: ResourceDef;
  frame: string;
  /** Shown inside another page (the login log in jurisdictionManage): a narrower filter bar. */
  isEmbedded?: boolean;
  /** What the family's web module changes (resources/families.ts). */
  parts?: LogParts;
  /** Filters the page holds fixed, hidden from its filter bar and columns: a drawer tab's parent row (`parent` in the declaration). */
  fixedValues?: FixedValues;
}

export function LogPage({ def: declared, frame, isEmbedded = false, parts, fixedValues = NO_VALUES }: LogPageProps) {
  const t = useT();
  const locale = useLocale();
  const adjustDef = parts?.adjustDef;
  const cells = parts?.cells;
  const def = useMemo(() => adjustDef?.(declared) ?? declared, [adjustDef, declared]);
  const { can } = usePermission(frame);
  // The time field has its own picker with presets; the filter bar shows the others.
  const timeField = def.log?.timeField ?? 'createdAt';
  // Fields the page's view fixes (identifySuccess: success = true) are the same in every row.
  const fixedFields = useMemo(
    () => new Set([...Object.keys(def.views.find((view) => view.frame === frame)?.fixed ?? {}), ...Object.keys(fixedValues)]),
    [def, frame, fixedValues],
  );
  const hiddenFields = useMemo(() => new Set([timeField, ...fixedFields]), [timeField, fixedFields]);
  // The page's own log keeps its filters in the address bar (the time range stays the page's: "the last 7 days" moves).
  const isOwnList = !isEmbedded && familiesOfFrame(frame)[0]?.name === def.name;
  const initialState = useInitialListState(def, isOwnList, hiddenFields);
  const list = useLogList(def, frame, fixedValues, initialState);
  useListAddress({ isEnabled: isOwnList, def, hiddenFields, state: list.addressState, restore: list.restore });
  const [openRow, setOpenRow] = useState<ResourceRow | null>(null);
  const api = useMemo(() => resourceApi(def.name, frame), [def.name, frame]);
  const exporter = useExport(api, labelText(def.label, locale));
  const queryClient = useQueryClient();
  /** The family's pages read again, and the menu's badges: an acknowledged fever alert leaves 体温异常's count at once. */
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['log', def.name] }), queryClient.invalidateQueries({ queryKey: ['badgeCounts'] })]);
  const [hidingId, setHidingId] = useState<number | null>(null);
  const canHide = Boolean(def.log?.hideField) && can('hide');
  const hide = async (row: ResourceRow) => {
    setHidingId(row.id);
    try {
      const { hidden } = await api.hide([row.id]);
      showToast('success', t('log.hiddenCount', { count: hidden }));
      await refresh();
    } finally {
      setHidingId(null);
    }
  };
  const declaredColumns = useMemo(
    () =>
      buildColumns(def, { locale, hideAmountColumns: false, hiddenFields: fixedFields }).map((column) => {
        const cell = cells?.[column.key];
        return cell ? { ...column, render: (_: unknown, row: ResourceRow) => cell(row, locale) } : column;
      }),
    [def, locale, fixedFields, cells],
  );
  // Declared actions without a form (a fever alert's Acknowledge), for holders of their button.
  const rowActions = (def.actions ?? []).filter((action) => !action.fields && can(action.button));
  const [runningAction, setRunningAction] = useState<string | null>(null);
  const runAction = async (verb: string, label: string, row: ResourceRow) => {
    setRunningAction(`${verb}:${row.id}`);
    try {
      await api.runAction(verb, { id: row.id });
      showToast('success', t('log.actionDone', { action: label }));
      await refresh();
    } finally {
      setRunningAction(null);
    }
  };
  const actionsColumn = {
    key: 'actions',
    title: t('resource.actions'),
    fixed: 'right' as const,
    width: 90 * ((canHide ? 1 : 0) + rowActions.length),
    render: (_: unknown, row: ResourceRow) => (
      // Clicking the action must not also open the drawer of the row.
      <Space size="small" onClick={(event) => event.stopPropagation()}>
        {rowActions.filter((action) => actionOffered(action, row)).map((action) => {
          const label = labelText(action.label, locale);
          return (
            <Popconfirm
              key={action.verb}
              title={label}
              description={action.confirm ? labelText(action.confirm, locale) : undefined}
              onConfirm={() => runAction(action.verb, label, row)}
            >
              <Button type="link" size="small" loading={runningAction === `${action.verb}:${row.id}`} style={{ padding: 0 }}>
                {label}
              </Button>
            </Popconfirm>
          );
        })}
        {canHide && (
          <Popconfirm title={t('log.hideTitle')} description={t('log.hideConfirm')} onConfirm={() => hide(row)}>
            <Button type="link" size="small" loading={hidingId === row.id} style={{ padding: 0 }}>
              {t('log.hide')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    ),
  };
  const columns = canHide || rowActions.length > 0 ? [...declaredColumns, actionsColumn] : declaredColumns;
  const presets: { label: string; value: LogRange }[] = [
    { label: t('log.today'), value: lastDays(1) },
    { label: t('log.last7Days'), value: lastDays(7) },
    { label: t('log.last30Days'), value: lastDays(30) },
  ];
  const applied = list.appliedRange;
  const timeLabel = labelText(def.fields[timeField]!.label, locale);
  const rangeLabelWidth = filterLabelWidth([timeLabel, ...visibleFiltersOf(def, hiddenFields).map(([, field]) => labelText(field.label, locale))]);
  const exportSource = { buttons: { export: can('export') }, exporter, startExport: () => void exporter.run(list.searchFilters) };
  const logFailure = list.query.isError && !list.query.isFetching ? list.query.error : null;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        {/* Laid out like the filter bar below it, so the labels and controls line up. */}
        <Form className="resource-filter-bar log-range-bar" labelCol={{ flex: `${rangeLabelWidth}px` }} labelWrap wrapperCol={{ flex: 1 }}>
          <Row gutter={16} align="middle">
            <Col xs={24} lg={16} xxl={12}>
              <Form.Item label={timeLabel} htmlFor={`log-range-${frame}-${def.name}`}>
                <DatePicker.RangePicker
                  id={`log-range-${frame}-${def.name}`}
                  aria-label={t('log.range')}
                  showTime
                  value={list.range}
                  presets={presets}
                  style={{ width: '100%', maxWidth: 420 }}
                  onChange={(value) => list.setRange(value?.[0] && value[1] ? [value[0], value[1]] : null)}
                />
              </Form.Item>
            </Col>
            {applied?.from && !list.range && (
              <Col flex="auto">
                <Typography.Text type="secondary">{t('log.defaultRange', { from: formatDateTime(applied.from) })}</Typography.Text>
              </Col>
            )}
          </Row>
        </Form>
        <FilterBar
          def={def}
          formName={`log-filters-${frame}-${def.name}`}
          hiddenFields={hiddenFields}
          fixedValues={NO_VALUES}
          initialValues={NO_VALUES}
          maxPerRow={isEmbedded ? 3 : 4}
          alignWith={[timeLabel]}
          appliedValues={list.filterForm}
          onSearch={(values) => list.setFilters(buildFilterPayload(def, values))}
        />
      </Card>
      <Card size="small">
        <ListToolbar end={<ExportButton list={exportSource} />}>
          <Typography.Text type="secondary">{t('log.newestFirst')}</Typography.Text>
        </ListToolbar>
        <ListTable<ResourceRow>
          size="middle"
          rows={list.rows}
          isLoading={list.query.isFetching}
          failure={logFailure && { error: logFailure, onRetry: () => void list.query.refetch() }}
          columns={columns}
          pagination={false}
          // A row opens its record: by click, and by Enter from the keyboard (each row is a tab stop).
          onRow={(row) => ({
            onClick: () => setOpenRow(row),
            onKeyDown: (event) => {
              if (event.key !== 'Enter' && event.key !== ' ') return;
              event.preventDefault();
              setOpenRow(row);
            },
            tabIndex: 0,
            style: { cursor: 'pointer' },
          })}
        />
        <Space style={{ marginTop: 12, width: '100%', justifyContent: 'flex-end' }}>
          <Button icon={<LeftOutlined />} disabled={!list.hasPrevious} onClick={list.previous}>
            {t('log.previous')}
          </Button>
          <Typography.Text>{t('log.page', { page: list.pageNumber })}</Typography.Text>
          <Button disabled={!list.hasNext} onClick={list.next}>
            {t('log.next')} <RightOutlined />
          </Button>
          <Select
            aria-label={t('log.pageSize')}
            value={list.pageSize}
            onChange={list.setPageSize}
            options={PAGE_SIZE_OPTIONS.map((size) => ({ value: size, label: t('log.perPage', { size }) }))}
            style={{ width: 120 }}
          />
        </Space>
      </Card>
      <LogDrawer def={def} parts={parts} row={openRow} onClose={() => setOpenRow(null)} />
      {exporter.progress}
    </Space>
  );
}

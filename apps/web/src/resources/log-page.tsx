/**
 * The page of a log family (`mode: 'log'`): a time range preset to the last 7 days, the family's
 * filters, the rows newest first paged by key (previous / next, no page numbers to jump to: a log
 * has no count), a read-only record drawer and the export. No add, edit or delete.
 */
import { ExportOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@campus/contract';
import { Button, Card, DatePicker, Select, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { usePermission } from '../hooks/use-permission';
import { useLocale, useT } from '../lib/i18n';
import { buildColumns } from './columns';
import { formatDateTime } from './field-values';
import { FilterBar } from './filter-bar';
import { buildFilterPayload } from './filter-payload';
import { labelText } from './labels';
import { LogDrawer } from './log-drawer';
import { lastDays, type LogRange } from './log-range';
import { resourceApi, type ResourceRow } from './resource-api';
import { useExport } from './use-export';
import { useLogList } from './use-log-list';
import './resource-page.css';

const PAGE_SIZE_OPTIONS = [10, 20, 50, 100, 200];
const NO_VALUES = {};

export interface LogPageProps {
  def: ResourceDef;
  frame: string;
  /** Shown inside another page (the login log in jurisdictionManage): a narrower filter bar. */
  isEmbedded?: boolean;
}

export function LogPage({ def, frame, isEmbedded = false }: LogPageProps) {
  const t = useT();
  const locale = useLocale();
  const { can } = usePermission(frame);
  const list = useLogList(def, frame);
  const [openRow, setOpenRow] = useState<ResourceRow | null>(null);
  const api = useMemo(() => resourceApi(def.name, frame), [def.name, frame]);
  const exporter = useExport(api, labelText(def.label, locale));
  const timeField = def.log?.timeField ?? 'createdAt';
  // The time field has its own picker with presets; the filter bar shows the others.
  const hiddenFields = useMemo(() => new Set([timeField]), [timeField]);
  const columns = useMemo(() => buildColumns(def, { locale, hideAmountColumns: false }), [def, locale]);
  const presets: { label: string; value: LogRange }[] = [
    { label: t('log.today'), value: lastDays(1) },
    { label: t('log.last7Days'), value: lastDays(7) },
    { label: t('log.last30Days'), value: lastDays(30) },
  ];
  const applied = list.appliedRange;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap style={{ marginBottom: 12 }}>
          <Typography.Text>{labelText(def.fields[timeField]!.label, locale)}</Typography.Text>
          <DatePicker.RangePicker
            aria-label={t('log.range')}
            showTime
            value={list.range}
            presets={presets}
            onChange={(value) => list.setRange(value?.[0] && value[1] ? [value[0], value[1]] : null)}
          />
          {applied?.from && !list.range && (
            <Typography.Text type="secondary">{t('log.defaultRange', { from: formatDateTime(applied.from) })}</Typography.Text>
          )}
        </Space>
        <FilterBar
          def={def}
          formName={`log-filters-${frame}-${def.name}`}
          hiddenFields={hiddenFields}
          fixedValues={NO_VALUES}
          initialValues={NO_VALUES}
          maxPerRow={isEmbedded ? 3 : 4}
          onSearch={(values) => list.setFilters(buildFilterPayload(def, values))}
        />
      </Card>
      <Card size="small">
        <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text type="secondary">{t('log.newestFirst')}</Typography.Text>
          {can('export') && (
            <Button icon={<ExportOutlined />} loading={exporter.isRunning} onClick={() => void exporter.run(list.searchFilters)}>
              {t('resource.export')}
            </Button>
          )}
        </Space>
        <Table<ResourceRow>
          rowKey="id"
          size="middle"
          loading={list.query.isFetching}
          dataSource={list.rows}
          columns={columns}
          scroll={{ x: 'max-content' }}
          pagination={false}
          onRow={(row) => ({ onClick: () => setOpenRow(row), style: { cursor: 'pointer' } })}
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
      <LogDrawer def={def} row={openRow} onClose={() => setOpenRow(null)} />
      {exporter.progress}
    </Space>
  );
}

/**
 * A record read-only (issue 11): every field a reader needs as the table shows it, uncut, its
 * read-only lines and state history; Edit for callers who may change it. Opened from the row's first
 * cell, so looking at a record never risks changing it.
 */
import { isMediaUrl, type ResourceDef } from '@campus/contract';
import { Button, Descriptions, Drawer, Space, Tabs, Typography, type TabsProps } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useVisibilityProbes } from '../../hooks/use-visibility-probes';
import { useWindowWidth } from '../../hooks/use-window-width';
import { useLocale, useT } from '../../lib/i18n';
import { buildColumns } from '../list/columns';
import { labelText } from '../shared/labels';
import { ReadOnlyLines, readOnlyLinesOf } from './read-only-lines';
import { recordTitleOf, recordViewFieldsOf } from './record-view-fields';
import type { ResourceApi, ResourceRow } from '../shared/resource-api';
import { StateHistorySection } from './state-timeline';

interface RecordViewProps {
  def: ResourceDef;
  api: ResourceApi;
  row: ResourceRow;
  /** Fields the page fixes: the same in every row, so not shown. */
  hiddenFields: ReadonlySet<string>;
  extraTabs?: TabsProps['items'];
  /** Shown when the caller may edit the row. */
  onEdit?: () => void;
  onClose: () => void;
}

export function RecordView({ def, api, row, hiddenFields, extraTabs = [], onEdit, onClose }: RecordViewProps) {
  const t = useT();
  const locale = useLocale();
  const windowWidth = useWindowWidth();
  const hideAmountColumns = useVisibilityProbes()?.hideAmountColumns === true;
  const columns = useMemo(
    () => buildColumns({ ...def, fields: recordViewFieldsOf(def) }, { locale, hideAmountColumns, hiddenFields }),
    [def, locale, hideAmountColumns, hiddenFields],
  );
  const family = labelText(def.label, locale);
  const details = (
    <>
      <Descriptions bordered size="small" column={{ xs: 1, md: 2 }} data-testid="record-view">
        {columns.map((column, index) => (
          <Descriptions.Item key={column.key} label={column.title as string}>
            {/* The table's cell, without its width: nothing is cut off here. */}
            {column.render?.(row[column.key], row, index) as ReactNode}
          </Descriptions.Item>
        ))}
      </Descriptions>
      {Object.entries(def.fields).map(([name, field]) => {
        // A stored video plays here, seeking by byte ranges through its signed address (/uploads/ answers 206).
        const src = row[name];
        if (field.kind !== 'file' || (field.files ?? 'video') !== 'video' || hiddenFields.has(name) || typeof src !== 'string' || !isMediaUrl(src)) return null;
        const poster = field.poster ? row[field.poster] : undefined;
        return (
          <section key={name} style={{ marginTop: 16 }}>
            <Typography.Title level={5}>{`${t('record.player')} · ${labelText(field.label, locale)}`}</Typography.Title>
            <video
              data-testid="record-player"
              controls
              preload="metadata"
              src={src}
              poster={typeof poster === 'string' && isMediaUrl(poster) ? poster : undefined}
              style={{ width: '100%', maxHeight: 405, background: '#000' }}
            />
          </section>
        );
      })}
      {readOnlyLinesOf(def).length > 0 && <ReadOnlyLines def={def} api={api} rowId={row.id} />}
      {def.workflow && <StateHistorySection def={def} api={api} rowId={row.id} />}
    </>
  );
  return (
    <Drawer
      open
      title={`${t('resource.viewTitle', { family })} · ${recordTitleOf(def, row, locale)}`}
      size={Math.min(extraTabs.length > 0 ? 1100 : 720, windowWidth - 48)}
      destroyOnHidden
      onClose={onClose}
      footer={
        <Space style={{ float: 'right' }}>
          <Button onClick={onClose}>{t('common.back')}</Button>
          {onEdit && (
            <Button type="primary" onClick={onEdit}>
              {t('resource.edit')}
            </Button>
          )}
        </Space>
      }
    >
      {extraTabs.length > 0 ? <Tabs items={[{ key: 'record', label: t('resource.details'), children: details }, ...extraTabs]} /> : details}
    </Drawer>
  );
}

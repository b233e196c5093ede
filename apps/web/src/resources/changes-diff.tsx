/**
 * The changes of an operation-log row as a table: field | before | after, in the family's labels.
 * The server writes `{ field: [before, after] }` (add: before is null; a toggle: the list of the rows'
 * old values) and, for a delete, `{ titles: [...] }` (engine/write.ts recordOperation).
 */
import { RESOURCES, type FieldDef } from '@campus/contract';
import { Table, Tag } from 'antd';
import { useLocale, useT, type Locale } from '../lib/i18n';
import { formatDateTime, formatMoney } from './field-values';
import { boolLabels, enumOptionOf, labelText } from './labels';

interface ChangesDiffProps {
  family: string;
  action: string;
  changes: unknown;
}

interface DiffRow {
  field: string;
  label: string;
  before: string;
  after: string;
}

/** One stored value for people: enum and bool labels, yuan, dates; lists joined. */
export function changeValueText(field: FieldDef | undefined, value: unknown, locale: Locale): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return [...new Set(value.map((one) => changeValueText(field, one, locale)))].join(', ');
  if (field?.kind === 'enum') {
    const option = enumOptionOf(field, value);
    return option ? labelText(option, locale) : String(value);
  }
  if (field?.kind === 'bool') return value ? boolLabels(field, locale).trueText : boolLabels(field, locale).falseText;
  if (field?.kind === 'money' && typeof value === 'number') return formatMoney(value);
  if (field?.kind === 'datetime') return formatDateTime(String(value));
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The rows of the diff table; a delete's titles are one row of "before" values. */
export function diffRows(family: string, action: string, changes: unknown, locale: Locale, titlesLabel: string): DiffRow[] {
  if (!changes || typeof changes !== 'object') return [];
  const fields = RESOURCES[family]?.fields ?? {};
  return Object.entries(changes as Record<string, unknown>).map(([name, change]): DiffRow => {
    const field = fields[name];
    const label = field ? labelText(field.label, locale) : name;
    if (action === 'delete' && name === 'titles') return { field: name, label: titlesLabel, before: changeValueText(undefined, change, locale), after: '' };
    const [before, after] = Array.isArray(change) && change.length === 2 ? change : [undefined, change];
    return { field: name, label, before: changeValueText(field, before, locale), after: changeValueText(field, after, locale) };
  });
}

export function ChangesDiff({ family, action, changes }: ChangesDiffProps) {
  const t = useT();
  const locale = useLocale();
  const rows = diffRows(family, action, changes, locale, t('log.deletedRows'));
  const isAdd = action === 'add';
  const isDelete = action === 'delete';
  return (
    <Table<DiffRow>
      size="small"
      rowKey="field"
      pagination={false}
      dataSource={rows}
      locale={{ emptyText: t('log.noChanges') }}
      columns={[
        { key: 'label', title: t('log.field'), dataIndex: 'label', width: 140 },
        ...(isAdd ? [] : [{ key: 'before', title: t('log.before'), render: (_: unknown, row: DiffRow) => (row.before === '' ? '' : <Tag>{row.before}</Tag>) }]),
        ...(isDelete ? [] : [{ key: 'after', title: t('log.after'), render: (_: unknown, row: DiffRow) => (row.after === '' ? '' : <Tag color="blue">{row.after}</Tag>) }]),
      ]}
    />
  );
}

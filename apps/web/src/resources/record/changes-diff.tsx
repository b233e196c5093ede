/**
 * The changes of an operation-log row as a table: field | before | after, in the family's labels.
 * The server writes `{ field: [before, after] }` (add: before is null; a toggle: the list of the rows'
 * old values) and, for a delete, `{ titles: [...] }` (engine/write.ts recordOperation).
 */
import { RESOURCES, loggedFieldsOf, type FieldDef, type OperationLogLabels } from '@campus/contract';
import { Table, Tag } from 'antd';
import { useLocale, useT, type Locale } from '../../lib/i18n';
import { formatDateTime, formatMoney } from '../shared/field-values';
import { boolLabels, enumOptionOf, labelText } from '../shared/labels';

interface ChangesDiffProps {
  family: string;
  action: string;
  changes: unknown;
  /** The server's names of the referenced rows in the changes, by field and raw value. */
  labels?: OperationLogLabels;
}

interface DiffRow {
  field: string;
  label: string;
  before: string;
  after: string;
}

/** One stored value for people: referenced rows by name, enum and bool labels, yuan, dates; lists joined. */
export function changeValueText(field: FieldDef | undefined, value: unknown, locale: Locale, names: Record<string, string> = {}): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return [...new Set(value.map((one) => changeValueText(field, one, locale, names)))].join(', ');
  if (field?.kind === 'reference' && names[String(value)]) return names[String(value)]!;
  if (field?.kind === 'enum') {
    const option = enumOptionOf(field, value);
    return option ? labelText(option, locale) : String(value);
  }
  if (field?.kind === 'bool') return value ? boolLabels(field, locale).trueText : boolLabels(field, locale).falseText;
  if (field?.kind === 'money' && typeof value === 'number') return formatMoney(value);
  if (field?.kind === 'datetime') return formatDateTime(String(value));
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The rows of the diff table, in the family's words (its fields and its transitions' inputs); a
 * delete's titles are one row of "before" values.
 */
export function diffRows(family: string, action: string, changes: unknown, locale: Locale, titlesLabel: string, labels: OperationLogLabels = {}): DiffRow[] {
  if (!changes || typeof changes !== 'object') return [];
  const declared = RESOURCES[family];
  const fields = declared ? loggedFieldsOf(declared) : {};
  return Object.entries(changes as Record<string, unknown>).map(([name, change]): DiffRow => {
    const field = fields[name];
    const label = field ? labelText(field.label, locale) : name;
    if (action === 'delete' && name === 'titles') return { field: name, label: titlesLabel, before: changeValueText(undefined, change, locale), after: '' };
    const [before, after] = Array.isArray(change) && change.length === 2 ? change : [undefined, change];
    const names = labels.values?.[name];
    return { field: name, label, before: changeValueText(field, before, locale, names), after: changeValueText(field, after, locale, names) };
  });
}

export function ChangesDiff({ family, action, changes, labels }: ChangesDiffProps) {
  const t = useT();
  const locale = useLocale();
  const rows = diffRows(family, action, changes, locale, t('log.deletedRows'), labels);
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

/** An operation-log entry's records as people know them: each id by its title when the server named it. */
export function recordsText(ids: unknown, labels: OperationLogLabels | undefined): string {
  if (!Array.isArray(ids)) return '';
  return ids.map((id) => labels?.records?.[String(id)] ?? `#${String(id)}`).join(', ');
}

/** Table columns from a declaration: one per listed field, cells rendered by kind. */
import { formatDuration, isListed, isMediaUrl, type FieldDef, type ResourceDef, type ToggleDef } from '@campus/contract';
import { Switch, Tag, Tooltip, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { ReactNode } from 'react';
import type { Locale } from '../../lib/i18n';
import { storedFileLabel } from '../../lib/stored-file-label';
import { textWidth } from '../../lib/text-width';
import { formatDateTime, formatMoney } from '../shared/field-values';
import { ImageThumb } from './deferred-image-thumb';
import { boolLabels, enumOptionOf, labelText, toggleValuesOf } from '../shared/labels';
import type { ResourceRow, SortState } from '../shared/resource-api';

export type ResourceColumn = ColumnType<ResourceRow> & {
  key: string;
  /** The cell holds a control of its own (a thumbnail that opens its preview, a switch): never wrapped in another. */
  holdsControl?: boolean;
};

/** Plain numbers as written, without grouping; at most two decimals. */
const NUMBER_FORMAT = new Intl.NumberFormat('en', { maximumFractionDigits: 2, useGrouping: false });

/** Widths by kind where a field declares none, so wide tables scroll instead of squeezing. */
const DEFAULT_WIDTH: Partial<Record<FieldDef['kind'], number>> = {
  text: 160,
  textarea: 200,
  phone: 130,
  number: 100,
  money: 120,
  bool: 100,
  enum: 120,
  date: 110,
  datetime: 150,
  reference: 160,
  image: 80,
  file: 120,
  region: 100,
  places: 200,
  json: 200,
};
const FALLBACK_WIDTH = 140;

/** Cell padding, and roughly how wide a character draws at the table's 14px font. */
const CELL_PADDING = 16;
const widthOfText = (text: string) => [...text].reduce((sum, char) => sum + (char.charCodeAt(0) > 0x2e80 ? 14 : 8), 0);

/** antd's tag: 7 px padding and a 1 px border each side, text at 12 px. */
const TAG_CHROME = 16;
/** antd's small switch: its handle and the inner margins beside its 12 px text. */
const SWITCH_CHROME = 30;
/** The header's sort arrows beside the title. */
const SORTER_WIDTH = 24;

/**
 * A column wide enough for its header and, for enums and bools, for the widest tag it can show, in
 * the user's language: English labels run longer than the Chinese the default widths were set for.
 */
function fittedWidth(field: FieldDef, title: string, locale: Locale, isToggle: boolean): number {
  const base = field.width ?? DEFAULT_WIDTH[field.kind] ?? FALLBACK_WIDTH;
  if (field.width !== undefined) return base;
  const header = textWidth(title, 14, 600) + 2 * CELL_PADDING + (field.sortable ? SORTER_WIDTH : 0);
  const tags =
    field.kind === 'enum'
      ? field.options.map((option) => labelText(option, locale))
      : field.kind === 'bool'
        ? Object.values(boolLabels(field, locale))
        : [];
  // A toggle draws its label inside a switch, wider than a tag ("Enabled" was cut by the actions column).
  const chrome = isToggle ? SWITCH_CHROME : TAG_CHROME;
  const widestTag = Math.max(0, ...tags.map((text) => textWidth(text, 12) + chrome + 2 * CELL_PADDING));
  return Math.max(base, header, widestTag);
}

/**
 * A text cell cut off with an ellipsis shows its whole value in a tooltip. Only values wider than
 * their column get one: a tooltip per cell of a 200-row page would cost more than it helps.
 */
export function withOverflowTooltip(content: ReactNode, width: number | undefined): ReactNode {
  if ((typeof content !== 'string' && typeof content !== 'number') || width === undefined) return content;
  const text = String(content);
  if (widthOfText(text) + CELL_PADDING <= width) return text;
  return (
    <Tooltip title={text} placement="topLeft">
      <span>{text}</span>
    </Tooltip>
  );
}

export interface ColumnBuildOptions {
  locale: Locale;
  /** Money columns are removed for accounts with the `hideAmountColumns` probe (the server omits them too). */
  hideAmountColumns: boolean;
  /** Fields fixed by the page (a view's `useFor`, a school's classes): the same in every row, so not shown. */
  hiddenFields?: ReadonlySet<string>;
  sort?: SortState;
  /** Toggles the caller may switch: their cells become switches. */
  toggles?: readonly ToggleDef[];
  onToggle?: (row: ResourceRow, field: string, value: unknown) => void;
  /** Row ids whose toggle call is in flight. */
  togglingIds?: ReadonlySet<number>;
}

function renderCell(name: string, field: FieldDef, row: ResourceRow, locale: Locale): ReactNode {
  const value = row[name];
  if (field.kind === 'reference') {
    const label = row[`${name}Label`];
    if (Array.isArray(label)) return label.map((one) => <Tag key={String(one)}>{String(one)}</Tag>);
    return typeof label === 'string' && label !== '' ? label : value === null || value === undefined ? '' : String(value);
  }
  if (value === null || value === undefined || value === '') return '';
  switch (field.kind) {
    case 'enum': {
      const option = enumOptionOf(field, value);
      return option ? <Tag color={option.color}>{labelText(option, locale)}</Tag> : String(value);
    }
    case 'bool': {
      const { trueText, falseText } = boolLabels(field, locale);
      return <Tag color={value ? 'green' : 'default'}>{value ? trueText : falseText}</Tag>;
    }
    case 'money':
      return typeof value === 'number' ? formatMoney(value) : String(value);
    case 'number':
      if (typeof value !== 'number') return String(value);
      // Measurements (similarity, temperature) come from sensors and arithmetic: two decimals at most.
      return field.unit === 'seconds' ? formatDuration(value) : NUMBER_FORMAT.format(value);
    case 'datetime':
      return formatDateTime(String(value));
    case 'image':
    case 'file':
      // Rows written before values were checked may hold anything; only safe addresses become links.
      if (!isMediaUrl(String(value))) return String(value);
      if (field.kind === 'image') return <ImageThumb src={String(value)} alt={labelText(field.label, locale)} />;
      return (
        <Typography.Link href={String(value)} target="_blank" rel="noreferrer">
          {storedFileLabel(String(value), field.files, locale)}
        </Typography.Link>
      );
    default:
      return String(value);
  }
}

function sortOrderOf(name: string, sort: SortState | undefined): 'ascend' | 'descend' | null {
  if (sort?.sortField !== name) return null;
  return sort.sortOrder === 'asc' ? 'ascend' : 'descend';
}

/**
 * The data columns of a family's table (the operations column is added by the page).
 * @example buildColumns(School, { locale: 'zh-CN', hideAmountColumns: false })
 */
export function buildColumns(def: ResourceDef, options: ColumnBuildOptions): ResourceColumn[] {
  return buildFieldColumns(def.fields, options);
}

/** The columns of any declared fields: a family's, or the line fields of its `lines` (read-only lines tables). */
export function buildFieldColumns(fields: Readonly<Record<string, FieldDef>>, options: ColumnBuildOptions): ResourceColumn[] {
  const { locale, hideAmountColumns, hiddenFields, sort, toggles = [], onToggle, togglingIds } = options;
  return Object.entries(fields)
    .filter(([name, field]) => isListed(field) && !hiddenFields?.has(name) && !(hideAmountColumns && field.kind === 'money'))
    .map(([name, field]): ResourceColumn => {
      const toggle = toggles.find((candidate) => candidate.field === name);
      const values = toggle ? toggleValuesOf(field) : undefined;
      const title = labelText(field.label, locale);
      const width = fittedWidth(field, title, locale, Boolean(values && onToggle));
      // A multiple reference's tags wrap inside the column, and an image is never cut: the rest keep to one line.
      const isCut = !(field.kind === 'image' || (field.kind === 'reference' && field.multiple));
      return {
        key: name,
        dataIndex: name,
        title,
        width,
        align: field.kind === 'money' || field.kind === 'number' ? 'right' : undefined,
        // The tooltip of a cut value is ours (withOverflowTooltip): the browser's title would show twice.
        ellipsis: isCut ? { showTitle: false } : false,
        sorter: field.sortable === true,
        sortOrder: field.sortable ? sortOrderOf(name, sort) : undefined,
        holdsControl: field.kind === 'image' || Boolean(values && onToggle),
        render: (_value: unknown, row: ResourceRow) =>
          values && onToggle ? (
            <Switch
              size="small"
              checked={String(row[name]) === String(values.on)}
              loading={togglingIds?.has(row.id)}
              checkedChildren={values.onText(locale)}
              unCheckedChildren={values.offText(locale)}
              onChange={(checked) => onToggle(row, name, checked ? values.on : values.off)}
            />
          ) : isCut ? (
            withOverflowTooltip(renderCell(name, field, row, locale), width)
          ) : (
            renderCell(name, field, row, locale)
          ),
      };
    });
}

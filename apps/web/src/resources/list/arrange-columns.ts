/** A table's columns as the user laid them out: shown ones only, in their order, widths and pins. */
import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH, type ColumnPin, type TableSettings } from '@campus/contract';
import type { ResourceColumn } from './columns';

export function clampColumnWidth(width: number): number {
  return Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, Math.round(width)));
}

/** The columns in the saved order; columns added to the family since the order was saved go last. */
export function orderedColumns<T extends { key: string }>(columns: readonly T[], order: readonly string[]): T[] {
  const rank = new Map(order.map((key, position) => [key, position]));
  return columns
    .map((column, position) => ({ column, position: rank.get(column.key) ?? order.length + position }))
    .sort((a, b) => a.position - b.position)
    .map(({ column }) => column);
}

/**
 * Applies the settings to the data columns: hidden ones go, the saved order comes first (columns
 * added to the family since go last), saved widths replace declared ones. Pinned columns move to
 * their edge, as antd requires; with no column pinned left the first one is, so a row stays
 * recognisable while the table scrolls sideways.
 * @example arrangeColumns(columns, { ...DEFAULT_TABLE_SETTINGS, hidden: ['address'], order: ['name'] })
 */
export function arrangeColumns(columns: readonly ResourceColumn[], settings: Pick<TableSettings, 'hidden' | 'order' | 'widths' | 'pinned'>): ResourceColumn[] {
  const shown = orderedColumns(
    columns.filter((column) => !settings.hidden.includes(column.key)),
    settings.order,
  ).map((column) => {
    const width = settings.widths[column.key];
    return width ? { ...column, width } : column;
  });
  const pinOf = (column: ResourceColumn): ColumnPin | undefined => settings.pinned[column.key];
  const left = shown.filter((column) => pinOf(column) === 'left');
  const right = shown.filter((column) => pinOf(column) === 'right');
  const middle = shown.filter((column) => pinOf(column) === undefined);
  if (left.length === 0 && middle.length > 0) left.push(middle.shift()!);
  return [
    ...left.map((column) => ({ ...column, fixed: 'left' as const })),
    ...middle.map((column) => ({ ...column, fixed: undefined })),
    ...right.map((column) => ({ ...column, fixed: 'right' as const })),
  ];
}

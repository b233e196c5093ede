import type { OverviewFigureKey } from '@campus/contract';

/** A figure as shown: revenue is in fen on the wire and shown in yuan with two decimals. */
export function formatFigure(name: OverviewFigureKey, value: number): string {
  if (name === 'revenue') return (value / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return value.toLocaleString('zh-CN');
}

/**
 * A figure's change against an earlier day: a percentage where the earlier day had any, otherwise the
 * difference itself in the figure's own unit (a percentage of nothing means nothing).
 */
export function formatChange(name: OverviewFigureKey, today: number, before: number): string {
  const delta = today - before;
  if (delta === 0) return '0';
  const sign = delta > 0 ? '+' : '-';
  if (before === 0) return `${sign}${formatFigure(name, Math.abs(delta))}`;
  const percent = Math.round((Math.abs(delta) / before) * 1000) / 10;
  return `${sign}${percent}%`;
}

/** Figures where a rise is bad news: their change is coloured as a fall of the others. */
const LOWER_IS_BETTER: ReadonlySet<OverviewFigureKey> = new Set(['devicesOffline']);

/** How a figure's change reads: good news, bad news, or none (the class that colours it). */
export function changeTone(name: OverviewFigureKey, today: number, before: number): 'is-better' | 'is-worse' | 'is-flat' {
  const gain = LOWER_IS_BETTER.has(name) ? before - today : today - before;
  return gain > 0 ? 'is-better' : gain < 0 ? 'is-worse' : 'is-flat';
}

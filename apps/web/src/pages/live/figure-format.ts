import type { OverviewFigureKey } from '@campus/contract';

/** A figure as shown: revenue is in fen on the wire and shown in yuan with two decimals. */
export function formatFigure(name: OverviewFigureKey, value: number): string {
  if (name === 'revenue') return (value / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return value.toLocaleString('zh-CN');
}

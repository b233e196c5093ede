/** The totals row under a report's table: a label over the dimension columns, then each shown measure's total. */
import type { ReportMeasureDef } from '@campus/contract';
import { Table, Typography } from 'antd';
import { useLocale, useT } from '../lib/i18n';
import { measureText } from './report-values';

export interface ReportTotalsRowProps {
  /** The dimension columns the label spans. */
  labelSpan: number;
  measures: readonly [string, ReportMeasureDef][];
  totals: Record<string, number>;
}

export function ReportTotalsRow({ labelSpan, measures, totals }: ReportTotalsRowProps) {
  const t = useT();
  const locale = useLocale();
  return (
    <Table.Summary fixed>
      <Table.Summary.Row className="report-totals">
        <Table.Summary.Cell index={0} colSpan={labelSpan}>
          <Typography.Text strong>{t('report.totals')}</Typography.Text>
        </Table.Summary.Cell>
        {measures.map(([name, measure], position) => (
          <Table.Summary.Cell key={name} index={labelSpan + position} align="right">
            <Typography.Text strong>{measureText(measure, totals[name], locale)}</Typography.Text>
          </Table.Summary.Cell>
        ))}
      </Table.Summary.Row>
    </Table.Summary>
  );
}

/** Draws a chart option with ECharts, loaded on first use (its own chunk) and resized with its box. */
import { Spin } from 'antd';
import { useEffect } from 'react';
import { useT } from '../lib/i18n';
import type { ReportChartOption } from './chart-option';
import { useEChart } from './use-echart';

export function ReportChart({ option, height = 360 }: { option: ReportChartOption; height?: number }) {
  const t = useT();
  const { boxRef, chart } = useEChart<ReportChartOption>();

  useEffect(() => {
    chart?.setOption(option, { notMerge: true });
  }, [chart, option]);

  return (
    <Spin spinning={chart === null} description={t('report.chartLoading')}>
      <div ref={boxRef} className="report-chart" style={{ height, width: '100%' }} data-testid="report-chart" />
    </Spin>
  );
}

/** Draws a chart option with ECharts, loaded on first use (its own chunk) and resized with its box. */
import { Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useT } from '../lib/i18n';
import type { ReportChartOption } from './chart-option';

type EChartsInstance = { setOption(option: ReportChartOption, options: { notMerge: boolean }): void; resize(): void; dispose(): void };

export function ReportChart({ option, height = 360 }: { option: ReportChartOption; height?: number }) {
  const t = useT();
  const boxRef = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<EChartsInstance | null>(null);

  useEffect(() => {
    let disposed = false;
    let instance: EChartsInstance | undefined;
    let observer: ResizeObserver | undefined;
    void import('./echarts-setup').then(({ echarts }) => {
      if (disposed || !boxRef.current) return;
      instance = echarts.init(boxRef.current) as unknown as EChartsInstance;
      // The tab strip and window both change the width; a chart drawn once would overflow or shrink.
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => instance?.resize());
        observer.observe(boxRef.current);
      }
      setChart(instance);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      instance?.dispose();
    };
  }, []);

  useEffect(() => {
    chart?.setOption(option, { notMerge: true });
  }, [chart, option]);

  return (
    <Spin spinning={chart === null} description={t('report.chartLoading')}>
      <div ref={boxRef} className="report-chart" style={{ height, width: '100%' }} data-testid="report-chart" />
    </Spin>
  );
}

/**
 * An ECharts chart drawn once and updated in place: each new option is merged into the live instance
 * (setOption without notMerge), so a pushed update animates bars and lines instead of drawing a new chart.
 */
import { useEffect, useRef, useState } from 'react';

type Option = Record<string, unknown>;
type EChartsInstance = { setOption(option: Option, options?: { notMerge?: boolean; lazyUpdate?: boolean }): void; resize(): void; dispose(): void };

export function LiveChart({ option, className, testId }: { option: Option; className?: string; testId?: string }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<EChartsInstance | null>(null);

  useEffect(() => {
    let disposed = false;
    let instance: EChartsInstance | undefined;
    let observer: ResizeObserver | undefined;
    void import('../../reports/echarts-setup').then(({ echarts }) => {
      if (disposed || !boxRef.current) return;
      instance = echarts.init(boxRef.current) as unknown as EChartsInstance;
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
    chart?.setOption(option, { lazyUpdate: true });
  }, [chart, option]);

  return <div ref={boxRef} className={className} data-testid={testId} data-chart-ready={chart ? '1' : '0'} />;
}

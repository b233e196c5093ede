/**
 * An ECharts chart drawn once and updated in place: each new option is merged into the live instance
 * (setOption without notMerge), so a pushed update animates bars and lines instead of drawing a new chart.
 */
import { useEffect } from 'react';
import { useEChart } from '../../reports/use-echart';

type Option = Record<string, unknown>;

export function LiveChart({ option, className, testId }: { option: Option; className?: string; testId?: string }) {
  const { boxRef, chart } = useEChart<Option>();

  useEffect(() => {
    chart?.setOption(option, { lazyUpdate: true });
  }, [chart, option]);

  return <div ref={boxRef} className={className} data-testid={testId} data-chart-ready={chart ? '1' : '0'} />;
}

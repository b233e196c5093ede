/** One ECharts instance on a box, shared by the report charts and the wall display's live charts. */
import { useEffect, useRef, useState } from 'react';

/** What the callers use of an ECharts instance (the library's own types stay in its lazily loaded chunk). */
export interface EChartsInstance<O> {
  setOption(option: O, options?: { notMerge?: boolean; lazyUpdate?: boolean }): void;
  resize(): void;
  dispose(): void;
}

/**
 * Draws into the box the returned ref is put on: ECharts is loaded on first use (its own chunk), the
 * chart follows the box's size (the tab strip and the window both change it) and is disposed with the
 * component. The instance is null until ECharts has loaded.
 */
export function useEChart<O>() {
  const boxRef = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<EChartsInstance<O> | null>(null);
  useEffect(() => {
    let disposed = false;
    let instance: EChartsInstance<O> | undefined;
    let observer: ResizeObserver | undefined;
    void import('./echarts-setup').then(({ echarts }) => {
      if (disposed || !boxRef.current) return;
      instance = echarts.init(boxRef.current) as unknown as EChartsInstance<O>;
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
  return { boxRef, chart };
}

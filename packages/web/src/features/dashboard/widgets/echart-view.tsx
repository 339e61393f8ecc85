import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, FunnelChart, GaugeChart, LineChart, MapChart, PieChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { CHINA_MAP } from '../model/chart-option.ts';

// ECharts, only the charts the widgets draw. This module is loaded on demand (React.lazy in widget-body.tsx), so the
// sign-in page and the workbench without a dashboard never download it (docs/decisions/0036, 0044).
echarts.use([BarChart, LineChart, PieChart, FunnelChart, GaugeChart, ScatterChart, MapChart, GridComponent, LegendComponent, TooltipComponent, VisualMapComponent, CanvasRenderer]);

let chinaRegistered: Promise<void> | undefined;
/** The provinces' outlines: their own chunk, read the first time a map is drawn. */
function registerChina(): Promise<void> {
  chinaRegistered ??= import('./china-map.ts').then(({ chinaProvinces }) => echarts.registerMap(CHINA_MAP, chinaProvinces() as never));
  return chinaRegistered;
}
const drawsMap = (option: Record<string, unknown>) => Array.isArray(option.series) && option.series.some((s: { type?: string }) => s.type === 'map');

export interface EChartViewProps {
  option: Record<string, unknown>;
  onPick?: (dataIndex: number, seriesIndex: number) => void;
  /** Called once the chart has drawn its option (the browser scenario and the bench wait for it). */
  onDrawn?: () => void;
  'aria-label'?: string;
}

export default function EChartView({ option, onPick, onDrawn, ...aria }: EChartViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    const el = ref.current!;
    const instance = echarts.init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    instance.on('click', (p) => {
      if (p.dataIndex != null && p.dataIndex >= 0) pick.current?.(p.dataIndex, p.seriesIndex ?? 0);
    });
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    let live = true;
    const draw = () => {
      const instance = chart.current;
      if (!live || !instance) return;
      instance.setOption(option, true);
      ref.current!.dataset.drawn = 'true';
      onDrawn?.();
    };
    if (drawsMap(option)) void registerChina().then(draw);
    else draw();
    return () => {
      live = false;
    };
  }, [option, onDrawn]);

  return <div ref={ref} role="img" style={{ width: '100%', height: '100%', minHeight: 160, cursor: onPick ? 'pointer' : undefined }} {...aria} />;
}

import { useMemo } from 'react';
import { Skeleton, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Background, ReactFlow, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { workflowApi, workflowKeys, type WorkflowChart } from './workflow-api.ts';
import { useFlowAriaLabels } from '../../../lib/use-flow-aria-labels.ts';

const GAP_X = 170;
const GAP_Y = 90;

/** Where nodes the designer did not place go: columns by their distance from the start, rows in order. */
export function layoutChart(chart: WorkflowChart): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  const depth = new Map<string, number>();
  const start = chart.activities.find((a) => a.type === 'Start') ?? chart.activities[0];
  const queue = start ? [start.code] : [];
  if (start) depth.set(start.code, 0);
  while (queue.length) {
    const code = queue.shift()!;
    for (const r of chart.routes.filter((route) => route.from === code)) {
      if (depth.has(r.to)) continue;
      depth.set(r.to, depth.get(code)! + 1);
      queue.push(r.to);
    }
  }
  const rows = new Map<number, number>();
  for (const a of chart.activities) {
    if (a.position) {
      out.set(a.code, a.position);
      continue;
    }
    const column = depth.get(a.code) ?? 0;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    out.set(a.code, { x: row * GAP_X, y: column * GAP_Y });
  }
  return out;
}

/** The flow chart (流程图) with the record's position: running nodes in blue, passed ones in green. */
export function FlowChart({ instanceId }: { instanceId: string }) {
  const { t } = useTranslation();
  const ariaLabels = useFlowAriaLabels();
  const { token } = theme.useToken();
  const chart = useQuery({ queryKey: workflowKeys.chart(instanceId), queryFn: () => workflowApi.chart(instanceId) });
  const graph = useMemo(() => {
    if (!chart.data) return null;
    const positions = layoutChart(chart.data);
    const colour = (status: string) =>
      status === 'Running' ? token.colorPrimary : status === 'Finished' ? token.colorSuccess : status === 'NotReached' ? token.colorBorder : token.colorWarning;
    const nodes: Node[] = chart.data.activities.map((a) => ({
      id: a.code,
      position: positions.get(a.code)!,
      data: { label: `${a.name} · ${t(`formWorkflow.chart.status.${a.status}`, { defaultValue: a.status })}` },
      ariaLabel: `${a.name} ${t(`formWorkflow.chart.status.${a.status}`, { defaultValue: a.status })}`,
      style: { borderColor: colour(a.status), borderWidth: 2, background: a.status === 'Running' ? token.colorPrimaryBg : token.colorBgContainer, fontSize: 12, width: 140 },
      draggable: false,
      connectable: false,
    }));
    const edges: Edge[] = chart.data.routes.map((r, i) => ({ id: `${r.from}-${r.to}-${i}`, source: r.from, target: r.to, label: r.isElse ? t('formWorkflow.chart.else') : undefined }));
    return { nodes, edges };
  }, [chart.data, t, token]);
  if (!graph) return <Skeleton active />;
  return (
    <div style={{ height: 420, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius }} role="img" aria-label={t('formWorkflow.side.chart')}>
      <ReactFlow nodes={graph.nodes} edges={graph.edges} fitView nodesDraggable={false} nodesConnectable={false} elementsSelectable={false} proOptions={{ hideAttribution: true }} ariaLabelConfig={ariaLabels}>
        <Background />
      </ReactFlow>
    </div>
  );
}

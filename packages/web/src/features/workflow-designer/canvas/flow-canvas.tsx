import { useCallback, useEffect, useMemo, useState, type DragEvent } from 'react';
import { theme } from 'antd';
import {
  Background,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  applyNodeChanges,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useTranslation } from 'react-i18next';
import { addActivity, connect, nextCode, removeActivity, removeRoute, routeId, type PaletteType, type Route } from '../model/template-model.ts';
import type { WorkflowDesignerApi } from '../model/use-workflow-designer.ts';
import { ActivityNode, type ActivityFlowNode } from './activity-node.tsx';
import { PALETTE_DRAG_TYPE } from './palette.tsx';
import { useFlowAriaLabels } from '../../../lib/use-flow-aria-labels.ts';

const nodeTypes = { activity: ActivityNode };

interface CanvasProps {
  designer: WorkflowDesignerApi;
  /** A route's label on the canvas: its condition in words, 否则, or nothing. */
  routeLabel: (route: Route) => string;
}

/** The flow chart: drop activities from the palette, drag between handles to connect, Delete to remove. */
export function FlowCanvas({ designer, routeLabel }: CanvasProps) {
  const ariaLabels = useFlowAriaLabels();
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { screenToFlowPosition, fitView } = useReactFlow();
  const { state, edit, move, select, byActivity } = designer;
  const { template, selection, dryRun } = state;

  const built = useMemo<ActivityFlowNode[]>(() => {
    const steps = new Map(dryRun?.steps.map((s) => [s.code, s]));
    return template.activities.map((activity) => {
      const step = steps.get(activity.code);
      return {
        id: activity.code,
        type: 'activity',
        position: activity.position ?? { x: 0, y: 0 },
        ariaLabel: activity.name,
        deletable: activity.type !== 'Start',
        selected: selection?.kind === 'activity' && selection.code === activity.code,
        data: {
          activity,
          issueCount: byActivity.get(activity.code)?.length ?? 0,
          dryRun: step ? { receivers: step.participants.map((p) => p.name).join('、'), nobody: step.whenEmpty } : undefined,
          offPath: !!dryRun && !step,
        },
      };
    });
  }, [template.activities, selection, byActivity, dryRun]);
  // xyflow measures the nodes it draws: keep the measurements across rebuilds.
  const [nodes, setNodes] = useState<ActivityFlowNode[]>(built);
  useEffect(() => setNodes((previous) => built.map((n) => ({ ...n, measured: previous.find((p) => p.id === n.id)?.measured }))), [built]);

  const edges = useMemo<Edge[]>(() => {
    const taken = new Set(dryRun?.steps.flatMap((s) => s.next.map((n) => `${s.code}>${n.to}`)));
    const names = new Map(template.activities.map((a) => [a.code, a.name]));
    return template.routes.map((route) => {
      const id = routeId(route);
      const onPath = taken.has(id);
      const label = routeLabel(route);
      return {
        id,
        source: route.from,
        target: route.to,
        label: label || undefined,
        ariaLabel: t('workflowDesigner.route.aria', { from: names.get(route.from), to: names.get(route.to) }),
        selected: selection?.kind === 'route' && selection.from === route.from && selection.to === route.to,
        markerEnd: { type: MarkerType.ArrowClosed, color: onPath ? token.colorSuccess : undefined },
        style: onPath ? { stroke: token.colorSuccess, strokeWidth: 2 } : undefined,
        labelBgStyle: { fill: token.colorBgContainer },
        labelStyle: { fill: route.isElse ? token.colorTextSecondary : token.colorWarningText, fontSize: token.fontSizeSM },
      };
    });
  }, [template.routes, template.activities, selection, dryRun, routeLabel, t, token]);

  const onNodesChange = useCallback(
    (changes: NodeChange<ActivityFlowNode>[]) => {
      setNodes((current) => applyNodeChanges(changes, current));
      for (const change of changes) {
        if (change.type === 'position' && change.position && !change.dragging) {
          const { id, position } = change;
          move((tpl) => ({ ...tpl, activities: tpl.activities.map((a) => (a.code === id ? { ...a, position: { x: Math.round(position.x), y: Math.round(position.y) } } : a)) }));
        }
        if (change.type === 'remove') edit((tpl) => removeActivity(tpl, change.id));
      }
    },
    [edit, move],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      for (const change of changes) {
        if (change.type !== 'remove') continue;
        const [from, to] = change.id.split('>');
        edit((tpl) => removeRoute(tpl, from, to));
      }
    },
    [edit],
  );
  const onConnect = useCallback((c: Connection) => edit((tpl) => connect(tpl, c.source, c.target)), [edit]);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(PALETTE_DRAG_TYPE) as PaletteType;
      if (!type) return;
      event.preventDefault();
      const at = screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const code = nextCode(template, type);
      edit((tpl) => addActivity(tpl, type, t(`workflowDesigner.types.${type}`), { x: Math.round(at.x), y: Math.round(at.y) }).template);
      select({ kind: 'activity', code });
    },
    [edit, select, screenToFlowPosition, t, template],
  );

  useEffect(() => {
    // Fit once the first measurements arrive.
    const timer = setTimeout(() => void fitView({ padding: 0.2, maxZoom: 1 }), 50);
    return () => clearTimeout(timer);
  }, [fitView]);

  return (
    <ReactFlow<ActivityFlowNode>
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={onConnect}
      onNodeClick={(_, node) => select({ kind: 'activity', code: node.id })}
      onEdgeClick={(_, edge) => select({ kind: 'route', from: edge.source, to: edge.target })}
      onPaneClick={() => select(null)}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
      }}
      onDrop={onDrop}
      deleteKeyCode={['Delete', 'Backspace']}
      minZoom={0.3}
      maxZoom={1.5}
      proOptions={{ hideAttribution: true }}
      ariaLabelConfig={ariaLabels}
      aria-label={t('workflowDesigner.canvas')}
    >
      <Background gap={16} />
      <Controls showInteractive={false} />
      <MiniMap pannable zoomable style={{ width: 140, height: 90 }} />
    </ReactFlow>
  );
}

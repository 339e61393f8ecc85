import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { Alert, App, Button, Dropdown, Empty, Flex, Segmented, Spin, Tooltip, Typography, theme } from 'antd';
import { EllipsisOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GANTT_MAX_TASKS } from '@tritium/shared/constants/limits';
import { ganttMode, settingsOf, type GanttSettings } from '@tritium/shared/view-modes/index';
import { runtimeKeys } from '../../../form-runtime/api/runtime-api.ts';
import { NamesProvider, useDisplayContext } from '../../../form-runtime/model/names.tsx';
import { ganttApi, listViewApi, type GanttTasks } from '../../api/list-view-api.ts';
import { cellText, controlsByCode, unitIdsOf } from '../../model/cells.ts';
import { useIsPhone } from '../../../../lib/use-is-phone.ts';
import { outcomeOf } from '../save-move.ts';
import type { ModeRuntimeProps, Row } from '../types.ts';
import { DAY, DAY_WIDTH, GANTT_ZOOMS, arrangeTasks, dragged, levelMoves, linkPath, reordered, spanOf, startOfDay, type ArrangedTask, type DragKind, type GanttZoom, type TaskInput } from './gantt-model.ts';
import { formatMonth, formatMonthDay } from '../../../../lib/date-format.ts';

// The Gantt chart (view mode 4; docs/decisions/0054), drawn by hand in SVG: a task list (levels, a menu per task) beside
// bars on a day scale, in swimlanes. Tasks come from POST /v1/bizdata/view/gantt. Dragging a bar moves it, dragging an
// end resizes it, dragging the dot after a bar onto another bar links them finish-to-start; each writes through the
// Gantt task calls, which save as the form saves — a refusal shows why and the bar springs back.

const HEADER = 40;

export default function GanttView(props: ModeRuntimeProps) {
  const settings = settingsOf(ganttMode, props.view.settings);
  const tasks = useQuery({
    queryKey: [...runtimeKeys.records(props.schemaCode), 'gantt', props.narrowing],
    queryFn: () => listViewApi.gantt(props.narrowing),
  });
  const rows = (tasks.data?.list ?? []) as Row[];
  return (
    <NamesProvider request={{ unitIds: unitIdsOf(rows, props.fields), objects: [] }}>
      <GanttBody {...props} settings={settings} data={tasks.data} loading={tasks.isFetching} />
    </NamesProvider>
  );
}

interface BodyProps extends ModeRuntimeProps {
  settings: GanttSettings;
  data: GanttTasks | undefined;
  loading: boolean;
}

type Drag = { id: string; kind: DragKind; x0: number; dx: number } | { id: string; kind: 'link'; x: number; y: number };

const time = (value: unknown): number | null => (value == null || value === '' ? null : new Date(String(value)).valueOf());

function GanttBody({ settings, data, loading, ...props }: BodyProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const context = useDisplayContext();
  const isPhone = useIsPhone();
  const [zoom, setZoom] = useState<GanttZoom>(isPhone ? 'week' : 'day');
  const [moved, setMoved] = useState(new Map<string, { start: number; end: number }>());
  const [drag, setDrag] = useState<Drag | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const controls = useMemo(() => controlsByCode(props.definition), [props.definition]);
  const byCode = new Map(props.fields.map((f) => [f.code, f]));
  const text = (code: string, row: Row) => {
    const field = byCode.get(code);
    return field ? cellText(field, row[code], controls, context) : String(row[code] ?? '');
  };
  const rowHeight = isPhone ? 44 : 36;
  const labelWidth = isPhone ? 132 : 260;
  const dayWidth = DAY_WIDTH[zoom];

  const rows = new Map(((data?.list ?? []) as Row[]).map((r) => [r.ObjectId, r]));
  const inputs: TaskInput[] = (data?.tasks ?? []).map((task) => {
    const row = rows.get(task.objectId)!;
    const own = moved.get(task.objectId);
    const start = own?.start ?? time(row[settings.startField]);
    return {
      id: task.objectId, parentId: task.parentId, type: task.type, sort: task.sort,
      start, end: own?.end ?? time(row[settings.endField]) ?? (start === null ? null : start + DAY),
      lane: settings.swimlanes.map((code) => text(code, row) || t('viewModes.kanban.none')).join(' / '),
    };
  });
  const lanes = arrangeTasks(inputs);
  const byId = new Map(lanes.flatMap((l) => l.tasks).map((task) => [task.id, task]));
  const predecessors = new Map<string, string[]>();
  for (const link of data?.links ?? []) predecessors.set(link.successor, [...(predecessors.get(link.successor) ?? []), link.predecessor]);
  // One line per task, after its lane's title line when the chart has swimlanes.
  const lines: ({ lane: string } | { task: ArrangedTask })[] = lanes.flatMap((lane) => [...(settings.swimlanes.length ? [{ lane: lane.key }] : []), ...lane.tasks.map((task) => ({ task }))]);
  const lineOf = new Map(lines.flatMap((line, i) => ('task' in line ? [[line.task.id, i] as const] : [])));
  const today = Date.now();
  const span = spanOf(inputs, today, zoom);
  const width = span.days * dayWidth;
  const height = HEADER + Math.max(lines.length, 1) * rowHeight;
  const xOf = (when: number) => ((when - span.from) / DAY) * dayWidth;
  const yOf = (line: number) => HEADER + line * rowHeight;

  useEffect(() => {
    if (scroller.current && data) scroller.current.scrollLeft = Math.max(0, xOf(startOfDay(today)) - dayWidth * 3);
    // Scrolled to today when the chart first has its tasks or changes zoom, not on every refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [!data, zoom]);

  const title = (row: Row) => text(settings.titleField, row) || String(row.Name ?? '') || t('viewModes.calendar.untitled');
  const common = { schemaCode: props.schemaCode, viewCode: props.view.code };
  const refresh = () => queryClient.invalidateQueries({ queryKey: runtimeKeys.records(props.schemaCode) });
  /** Runs a task call: a refusal shows its reason and whatever the chart moved goes back. */
  const write = async (id: string, call: Promise<unknown>, done: string) => {
    const outcome = await outcomeOf(call);
    if (outcome.ok) {
      void message.success(done);
      await refresh();
    } else void message.error(t('viewModes.gantt.refused', { reason: outcome.message }));
    setMoved((m) => {
      const next = new Map(m);
      next.delete(id);
      return next;
    });
  };

  const pointAt = (e: ReactPointerEvent) => {
    const box = svg.current!.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  const begin = (e: ReactPointerEvent, id: string, kind: DragKind | 'link') => {
    e.stopPropagation();
    svg.current?.setPointerCapture?.(e.pointerId);
    const p = pointAt(e);
    setDrag(kind === 'link' ? { id, kind, x: p.x, y: p.y } : { id, kind, x0: p.x, dx: 0 });
  };
  const onMove = (e: ReactPointerEvent) => {
    if (!drag) return;
    const p = pointAt(e);
    setDrag(drag.kind === 'link' ? { ...drag, x: p.x, y: p.y } : { ...drag, dx: p.x - drag.x0 });
  };
  const onUp = (e: ReactPointerEvent) => {
    if (!drag) return;
    setDrag(null);
    const task = byId.get(drag.id);
    const row = rows.get(drag.id);
    if (!task || !row) return;
    if (drag.kind === 'link') {
      const p = pointAt(e);
      const line = lines[Math.floor((p.y - HEADER) / rowHeight)];
      const target = line && 'task' in line ? line.task.id : null;
      if (!target || target === drag.id) return;
      const before = predecessors.get(target) ?? [];
      if (before.includes(drag.id)) return;
      void write(target, ganttApi.saveDependency({ ...common, objectId: target, predecessors: [...before, drag.id] }), t('viewModes.gantt.linked'));
      return;
    }
    if (Math.abs(drag.dx) < 3 && drag.kind === 'move') return props.onOpen(row);
    if (task.start === null || task.end === null) return;
    const next = dragged({ start: task.start, end: task.end }, drag.kind, drag.dx, dayWidth);
    if (!next) return;
    setMoved((m) => new Map(m).set(drag.id, next));
    const dates = { ...(drag.kind !== 'end' ? { start: new Date(next.start).toISOString() } : {}), ...(drag.kind !== 'start' ? { end: new Date(next.end).toISOString() } : {}) };
    void write(drag.id, ganttApi.update({ ...common, objectId: drag.id, ...dates }), t('viewModes.gantt.moved'));
  };
  /** Where a bar is drawn, with the drag in progress applied. */
  const barOf = (task: ArrangedTask) => {
    if (task.start === null || task.end === null) return null;
    const live = drag && drag.id === task.id && drag.kind !== 'link' ? (dragged({ start: task.start, end: task.end }, drag.kind, drag.dx, dayWidth) ?? task) : task;
    const x = xOf(live.start!);
    return { x, w: Math.max(xOf(live.end!) - x, 6), y: yOf(lineOf.get(task.id)!) };
  };

  const menuOf = (task: ArrangedTask, row: Row) => {
    const levels = levelMoves(task, byId);
    const items = [
      ...(props.canCreate ? [{ key: 'child', label: t('viewModes.gantt.addChild'), disabled: !data?.parentField }] : []),
      { key: 'up', label: t('viewModes.gantt.levelUp'), disabled: !data?.parentField || levels.up === undefined },
      { key: 'down', label: t('viewModes.gantt.levelDown'), disabled: !data?.parentField || levels.down === undefined },
      { key: 'earlier', label: t('viewModes.gantt.moveUp'), disabled: !reordered(task.siblings, task.id, -1) },
      { key: 'later', label: t('viewModes.gantt.moveDown'), disabled: !reordered(task.siblings, task.id, 1) },
      { key: 'type', label: t(task.type === 'milestone' ? 'viewModes.gantt.makeTask' : 'viewModes.gantt.makeMilestone') },
      ...(settings.dependencyStorage === 'table' ? [{ key: 'unlink', label: t('viewModes.gantt.unlink'), disabled: !predecessors.get(task.id)?.length }] : []),
    ];
    const act = (key: string) => {
      const objectId = task.id;
      if (key === 'child') props.onCreate({ [data!.parentField!]: objectId, [settings.startField]: row[settings.startField], [settings.endField]: row[settings.endField] }, 'GanttCreateNode');
      if (key === 'up' || key === 'down') void write(objectId, ganttApi.changeLevel({ ...common, objectId, parentId: (key === 'up' ? levels.up : levels.down) ?? null }), t('viewModes.gantt.levelChanged'));
      if (key === 'earlier' || key === 'later') void write(objectId, ganttApi.sort({ ...common, objectIds: reordered(task.siblings, objectId, key === 'earlier' ? -1 : 1)! }), t('viewModes.gantt.sorted'));
      if (key === 'type') void write(objectId, ganttApi.updateType({ ...common, objectId, type: task.type === 'milestone' ? 'task' : 'milestone' }), t('viewModes.gantt.typeChanged'));
      if (key === 'unlink') void write(objectId, ganttApi.saveDependency({ ...common, objectId, predecessors: [] }), t('viewModes.gantt.unlinked'));
    };
    return { items, onClick: ({ key }: { key: string }) => act(key) };
  };

  const ticks = Array.from({ length: span.days }, (_, i) => span.from + i * DAY).filter((d) => {
    const day = new Date(d);
    return zoom === 'day' || (zoom === 'week' ? day.getDay() === 1 : day.getDate() === 1);
  });
  const tickLabel = (d: number) => (zoom === 'month' ? formatMonth(d) : formatMonthDay(d));
  const newTask = () => {
    const start = startOfDay(today) + 9 * 3_600_000;
    props.onCreate({ [settings.startField]: new Date(start).toISOString(), [settings.endField]: new Date(start + DAY).toISOString() }, 'GanttCreateNode');
  };
  const handle = isPhone ? 9 : 6;

  return (
    <Flex vertical gap="small" role="region" aria-label={t('viewModes.modes.gantt')}>
      <Flex gap="small" align="center" wrap>
        {props.canCreate && <Button type="primary" icon={<PlusOutlined />} onClick={newTask}>{t('viewModes.gantt.newTask')}</Button>}
        <Button onClick={() => scroller.current && (scroller.current.scrollLeft = Math.max(0, xOf(startOfDay(today)) - dayWidth * 3))}>{t('viewModes.timeline.today')}</Button>
        {!isPhone && <Typography.Text type="secondary">{t('viewModes.gantt.hint')}</Typography.Text>}
        <div style={{ flex: 1 }} />
        <Segmented aria-label={t('viewModes.zoom')} value={zoom} onChange={(v) => setZoom(v as GanttZoom)} options={GANTT_ZOOMS.map((z) => ({ value: z, label: t(`viewModes.layouts.${z}`) }))} />
      </Flex>
      {data?.hasMore && <Alert type="warning" showIcon title={t('viewModes.gantt.tooMany', { total: data.total, max: GANTT_MAX_TASKS })} />}
      {loading && !data ? <Spin /> : !lines.length ? <Empty description={t('viewModes.card.empty')} /> : (
        <div ref={scroller} style={{ overflow: 'auto', maxHeight: isPhone ? undefined : Math.max(420, props.height), border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius }}>
          <div style={{ display: 'flex', width: labelWidth + width }}>
            <div role="list" aria-label={t('viewModes.gantt.tasks')} style={{ position: 'sticky', left: 0, zIndex: 2, width: labelWidth, flex: 'none', background: token.colorBgContainer, borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}>
              <div style={{ height: HEADER, borderBottom: `1px solid ${token.colorBorderSecondary}`, padding: '0 8px', display: 'flex', alignItems: 'center', background: token.colorFillQuaternary }}>
                <Typography.Text strong>{t('viewModes.gantt.tasks')}</Typography.Text>
              </div>
              {lines.map((line) => {
                if ('lane' in line) return <div key={`lane:${line.lane}`} role="heading" aria-level={3} style={{ height: rowHeight, display: 'flex', alignItems: 'center', padding: '0 8px', background: token.colorFillTertiary, fontWeight: 600 }}>{line.lane}</div>;
                const { task } = line;
                const row = rows.get(task.id)!;
                const name = title(row);
                return (
                  <div key={task.id} role="listitem" aria-label={name} style={{ height: rowHeight, display: 'flex', alignItems: 'center', gap: 4, paddingInlineStart: 8 + task.depth * (isPhone ? 10 : 16), paddingInlineEnd: 4, borderBottom: `1px solid ${token.colorSplit}` }}>
                    <Typography.Text ellipsis strong={task.hasChildren} style={{ flex: 1, cursor: 'pointer' }} onClick={() => props.onOpen(row)}>{name}</Typography.Text>
                    <Dropdown trigger={['click']} menu={menuOf(task, row)}>
                      <Button type="text" size={isPhone ? 'middle' : 'small'} icon={<EllipsisOutlined />} aria-label={t('viewModes.gantt.actions', { task: name })} />
                    </Dropdown>
                  </div>
                );
              })}
            </div>
            <svg ref={svg} data-gantt-chart width={width} height={height} style={{ display: 'block', flex: 'none', userSelect: 'none' }} onPointerMove={onMove} onPointerUp={onUp} onPointerCancel={() => setDrag(null)}>
              <defs>
                <marker id="gantt-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill={token.colorTextTertiary} /></marker>
              </defs>
              <rect x={0} y={0} width={width} height={HEADER} fill={token.colorFillQuaternary} />
              {ticks.map((d) => (
                <g key={d}>
                  <line x1={xOf(d)} x2={xOf(d)} y1={HEADER - 10} y2={height} stroke={token.colorSplit} />
                  <text x={xOf(d) + 4} y={HEADER - 14} fontSize={11} fill={token.colorTextSecondary}>{tickLabel(d)}</text>
                </g>
              ))}
              {lines.map((line, i) => 'lane' in line && <rect key={`lane:${line.lane}`} x={0} y={yOf(i)} width={width} height={rowHeight} fill={token.colorFillTertiary} />)}
              <line x1={xOf(today)} x2={xOf(today)} y1={HEADER} y2={height} stroke={token.colorError} strokeDasharray="4 3" aria-hidden />
              {(data?.links ?? []).map((link) => {
                const a = byId.get(link.predecessor);
                const b = byId.get(link.successor);
                const from = a && barOf(a);
                const to = b && barOf(b);
                if (!from || !to) return null;
                return <path key={`${link.predecessor}>${link.successor}`} d={linkPath({ x: from.x + from.w, y: from.y + rowHeight / 2 }, { x: to.x, y: to.y + rowHeight / 2 })} fill="none" stroke={token.colorTextTertiary} markerEnd="url(#gantt-arrow)" />;
              })}
              {lines.map((line) => {
                if (!('task' in line)) return null;
                const { task } = line;
                const bar = barOf(task);
                const row = rows.get(task.id)!;
                if (!bar) return null;
                const name = title(row);
                const progress = settings.progressField ? Math.min(100, Math.max(0, Number(row[settings.progressField] ?? 0))) : 0;
                const top = bar.y + (isPhone ? 8 : 7);
                const h = rowHeight - (isPhone ? 16 : 14);
                const mid = bar.y + rowHeight / 2;
                return (
                  <g key={task.id} role="button" aria-label={name} tabIndex={0} data-task={task.id} style={{ cursor: 'grab', touchAction: 'none' }}
                    // A press drags or opens; it does not leave the keyboard's focus ring on the bar.
                    onMouseDown={(e) => e.preventDefault()} onKeyDown={(e) => e.key === 'Enter' && props.onOpen(row)}>
                    {task.type === 'milestone' ? (
                      <path d={`M${bar.x},${mid - h / 2} L${bar.x + h / 2},${mid} L${bar.x},${mid + h / 2} L${bar.x - h / 2},${mid} z`} fill={token.colorWarning} onPointerDown={(e) => begin(e, task.id, 'move')} />
                    ) : (
                      <>
                        <rect x={bar.x} y={top} width={bar.w} height={h} rx={4} fill={task.hasChildren ? token.colorPrimaryBorder : token.colorPrimaryBg} stroke={token.colorPrimary} onPointerDown={(e) => begin(e, task.id, 'move')} />
                        {progress > 0 && <rect x={bar.x} y={top} width={(bar.w * progress) / 100} height={h} rx={4} fill={token.colorPrimary} opacity={0.45} pointerEvents="none" />}
                        <rect x={bar.x - 2} y={top} width={handle} height={h} fill="transparent" style={{ cursor: 'ew-resize' }} aria-label={t('viewModes.gantt.resizeStart')} onPointerDown={(e) => begin(e, task.id, 'start')} />
                        <rect x={bar.x + bar.w - handle + 2} y={top} width={handle} height={h} fill="transparent" style={{ cursor: 'ew-resize' }} aria-label={t('viewModes.gantt.resizeEnd')} onPointerDown={(e) => begin(e, task.id, 'end')} />
                      </>
                    )}
                    <text x={bar.x + (task.type === 'milestone' ? h / 2 + 6 : bar.w + handle * 2 + 6)} y={mid + 4} fontSize={12} fill={token.colorText} pointerEvents="none">
                      {name}{progress > 0 ? ` ${progress}%` : ''}
                    </text>
                    {settings.dependencyStorage === 'table' && (
                      <Tooltip title={t('viewModes.gantt.linkHint')}>
                        <circle cx={bar.x + (task.type === 'milestone' ? h / 2 : bar.w) + handle + 2} cy={mid} r={handle / 1.5 + 1} fill={token.colorBgContainer} stroke={token.colorPrimary} style={{ cursor: 'crosshair' }}
                          role="button" aria-label={t('viewModes.gantt.link', { task: name })} onPointerDown={(e) => begin(e, task.id, 'link')} />
                      </Tooltip>
                    )}
                  </g>
                );
              })}
              {drag?.kind === 'link' && (() => {
                const from = byId.get(drag.id);
                const bar = from && barOf(from);
                return bar ? <line x1={bar.x + bar.w} y1={bar.y + rowHeight / 2} x2={drag.x} y2={drag.y} stroke={token.colorPrimary} strokeDasharray="4 3" /> : null;
              })()}
            </svg>
          </div>
        </div>
      )}
    </Flex>
  );
}

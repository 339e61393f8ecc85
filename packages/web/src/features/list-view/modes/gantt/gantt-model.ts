import type { GanttTaskType } from '@tritium/shared/view-modes/index';

// The Gantt chart's arithmetic (docs/decisions/0054), apart from drawing so it can be tested alone: tasks arranged
// into swimlanes and levels, the time scale, what a drag does to a task's dates, and the path of a link.

export const DAY = 86_400_000;
export const GANTT_ZOOMS = ['day', 'week', 'month'] as const;
export type GanttZoom = (typeof GANTT_ZOOMS)[number];
/** Pixels per day of each zoom. */
export const DAY_WIDTH: Record<GanttZoom, number> = { day: 40, week: 16, month: 5 };

export interface TaskInput {
  id: string;
  parentId: string | null;
  type: GanttTaskType;
  sort: number | null;
  /** Milliseconds; null when the record has no such date. */
  start: number | null;
  end: number | null;
  /** The swimlane's key (its fields' values); '' without swimlanes. */
  lane: string;
}

export interface ArrangedTask extends TaskInput {
  depth: number;
  hasChildren: boolean;
  /** The task before it among its siblings, if any (a level down goes under it). */
  previousSibling: string | null;
  siblings: string[];
}

export interface Lane {
  key: string;
  tasks: ArrangedTask[];
}

/**
 * Lanes in the order their first task comes, each a depth-first walk of its task tree. Siblings go by their stored
 * place, then by start (a task never placed comes after the placed ones). A task whose parent is in another lane (or
 * not shown) starts a tree of its own; a parent loop in old data is cut where it closes.
 */
export function arrangeTasks(tasks: readonly TaskInput[]): Lane[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const lanes = new Map<string, TaskInput[]>();
  for (const t of tasks) lanes.set(t.lane, [...(lanes.get(t.lane) ?? []), t]);
  const order = (a: TaskInput, b: TaskInput) => (a.sort ?? Infinity) - (b.sort ?? Infinity) || (a.start ?? Infinity) - (b.start ?? Infinity);
  return [...lanes].map(([key, members]) => {
    const children = new Map<string | null, TaskInput[]>();
    for (const t of members) {
      const parent = t.parentId && byId.get(t.parentId)?.lane === key ? t.parentId : null;
      children.set(parent, [...(children.get(parent) ?? []), t]);
    }
    const out: ArrangedTask[] = [];
    const seen = new Set<string>();
    const walk = (parent: string | null, depth: number) => {
      const kids = (children.get(parent) ?? []).filter((t) => !seen.has(t.id)).sort(order);
      kids.forEach((t, i) => {
        seen.add(t.id);
        out.push({ ...t, depth, hasChildren: (children.get(t.id) ?? []).length > 0, previousSibling: i > 0 ? kids[i - 1]!.id : null, siblings: kids.map((k) => k.id) });
        walk(t.id, depth + 1);
      });
    };
    walk(null, 0);
    // Tasks only reachable through a loop: shown at the top level rather than lost.
    for (const t of members.filter((m) => !seen.has(m.id)).sort(order)) {
      seen.add(t.id);
      out.push({ ...t, depth: 0, hasChildren: false, previousSibling: null, siblings: [t.id] });
    }
    return { key, tasks: out };
  });
}

/** The chart's span: whole days from a little before the first start to a little after the last end (or around today). */
export function spanOf(tasks: readonly TaskInput[], today: number, zoom: GanttZoom): { from: number; days: number } {
  const times = tasks.flatMap((t) => [t.start, t.end]).filter((v): v is number => v !== null);
  const lead = zoom === 'day' ? 3 : zoom === 'week' ? 7 : 30;
  const first = Math.min(today, ...times);
  const last = Math.max(today, ...times);
  const from = startOfDay(first) - lead * DAY;
  return { from, days: Math.ceil((startOfDay(last) + DAY - from) / DAY) + lead * 2 };
}

export function startOfDay(time: number): number {
  const d = new Date(time);
  d.setHours(0, 0, 0, 0);
  return d.valueOf();
}

export type DragKind = 'move' | 'start' | 'end';

/**
 * A task's dates after a drag of `dx` pixels, in whole days: a move shifts both ends, a resize one end, never past
 * the other (a task keeps at least its own length of zero). Null when the drag moved less than half a day.
 */
export function dragged(task: { start: number; end: number }, kind: DragKind, dx: number, dayWidth: number): { start: number; end: number } | null {
  const days = Math.round(dx / dayWidth);
  if (days === 0) return null;
  const shift = days * DAY;
  if (kind === 'move') return { start: task.start + shift, end: task.end + shift };
  if (kind === 'start') return { start: Math.min(task.start + shift, task.end), end: task.end };
  return { start: task.start, end: Math.max(task.end + shift, task.start) };
}

/** A finish-to-start arrow: out of the predecessor's end, down or up to the successor's row, into its start. */
export function linkPath(from: { x: number; y: number }, to: { x: number; y: number }): string {
  const out = from.x + 10;
  if (to.x - 10 >= out) return `M${from.x},${from.y} H${out} V${to.y} H${to.x}`;
  // The successor starts before the predecessor ends: round the bar.
  const mid = (from.y + to.y) / 2;
  return `M${from.x},${from.y} H${out} V${mid} H${to.x - 10} V${to.y} H${to.x}`;
}

/** The level-change a row's menu offers: up (to the parent's parent) and down (under the sibling before it). */
export function levelMoves(task: ArrangedTask, byId: ReadonlyMap<string, ArrangedTask>): { up: string | null | undefined; down: string | undefined } {
  const parent = task.depth > 0 && task.parentId ? byId.get(task.parentId) : undefined;
  return { up: parent ? (parent.depth > 0 ? parent.parentId : null) : undefined, down: task.previousSibling ?? undefined };
}

/** Siblings with one moved a place up (-1) or down (+1); null at either end. */
export function reordered(siblings: readonly string[], id: string, step: -1 | 1): string[] | null {
  const i = siblings.indexOf(id);
  const j = i + step;
  if (i < 0 || j < 0 || j >= siblings.length) return null;
  const out = [...siblings];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

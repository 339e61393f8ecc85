import { Activity as ActivitySchema, NEW_ACTIVITY_DEFAULTS, type ActivityType, type FieldPermission, type TemplateIssue, type WorkflowTemplate } from '@tritium/shared/workflow/index';

// The designer's model: pure edits of a workflow template (docs/decisions/0018). Every function answers a new
// template and keeps it a valid shape for the zod contract; the publish validator judges the design itself.

export type Template = WorkflowTemplate;
export type Activity = Template['activities'][number];
export type Route = Template['routes'][number];
export type { ActivityType, TemplateIssue };

/** What the palette offers (Start exists once and is never added). */
export const PALETTE_TYPES = ['Fill', 'Approve', 'Circulate', 'Condition', 'Parallel', 'Join', 'ChildInstance', 'End'] as const satisfies readonly ActivityType[];
export type PaletteType = (typeof PALETTE_TYPES)[number];

export const NODE_WIDTH = 180;
const LAYER_GAP = 130;
const COLUMN_GAP = 240;

export function emptyTemplate(names: { start: string; end: string }): Template {
  return {
    activities: [ActivitySchema.parse({ type: 'Start', code: 'Start', name: names.start, position: { x: 0, y: 0 } }), ActivitySchema.parse({ type: 'End', code: 'End', name: names.end, position: { x: 0, y: LAYER_GAP * 2 } })],
    routes: [{ from: 'Start', to: 'End', isElse: false }],
  };
}

/** A template as the server stored it (draft or version), read with the schema's defaults; null when unreadable. */
export function readTemplate(stored: unknown): Template | null {
  if (!stored || typeof stored !== 'object') return null;
  const { activities, routes } = stored as { activities?: unknown[]; routes?: Route[] };
  if (!Array.isArray(activities) || !Array.isArray(routes)) return null;
  try {
    return { activities: activities.map((a) => ActivitySchema.parse(a)), routes: routes.map((r) => ({ ...r, isElse: !!r.isElse })) };
  } catch {
    return null;
  }
}

/** The next free code of a type: Approve1, Approve2, … */
export function nextCode(template: Template, type: ActivityType): string {
  const taken = new Set(template.activities.map((a) => a.code));
  for (let i = 1; ; i++) if (!taken.has(`${type}${i}`)) return `${type}${i}`;
}

/** Below the lowest node: where an activity added without a drop point goes. */
export function defaultPosition(template: Template, below?: string): { x: number; y: number } {
  const anchor = below ? template.activities.find((a) => a.code === below)?.position : undefined;
  if (anchor) return { x: anchor.x, y: anchor.y + LAYER_GAP };
  const ys = template.activities.map((a) => a.position?.y ?? 0);
  return { x: 0, y: (ys.length ? Math.max(...ys) : 0) + LAYER_GAP };
}

export function addActivity(template: Template, type: PaletteType, name: string, position: { x: number; y: number }): { template: Template; code: string } {
  const code = nextCode(template, type);
  const activity = ActivitySchema.parse({ ...NEW_ACTIVITY_DEFAULTS[type], type, code, name, position });
  return { template: { ...template, activities: [...template.activities, activity] }, code };
}

/**
 * Adds an activity after `code` (the palette clicked with a node selected): a node that does not branch hands its
 * way out to the new one (A → X becomes A → new → X); a branch gets one more route.
 */
export function insertAfter(template: Template, code: string, type: PaletteType, name: string): { template: Template; code: string } {
  const anchor = template.activities.find((a) => a.code === code);
  if (!anchor || anchor.type === 'End') return addActivity(template, type, name, defaultPosition(template));
  const branches = anchor.type === 'Condition' || anchor.type === 'Parallel';
  const siblings = template.routes.filter((r) => r.from === code).length;
  const position = defaultPosition(template, code);
  const added = addActivity(template, type, name, branches ? { x: position.x + siblings * COLUMN_GAP, y: position.y } : position);
  const outs = template.routes.filter((r) => r.from === code);
  let routes = [...added.template.routes, { from: code, to: added.code, isElse: false }];
  if (!branches) {
    routes = routes.filter((r) => !(r.from === code && r.to !== added.code));
    if (type !== 'End') routes.push(...outs.map((r) => ({ from: added.code, to: r.to, isElse: false })));
    // Everything from the new node's layer down moves one layer down.
    const activities = added.template.activities.map((a) => (a.code !== added.code && a.position && a.position.y >= position.y ? { ...a, position: { x: a.position.x, y: a.position.y + LAYER_GAP } } : a));
    return { template: { activities, routes }, code: added.code };
  }
  return { template: { ...added.template, routes }, code: added.code };
}

/** Why a route cannot be drawn, or null when it can. */
export function connectProblem(template: Template, from: string, to: string): 'self' | 'duplicate' | 'intoStart' | 'fromEnd' | 'unknown' | null {
  const a = template.activities.find((x) => x.code === from);
  const b = template.activities.find((x) => x.code === to);
  if (!a || !b) return 'unknown';
  if (from === to) return 'self';
  if (b.type === 'Start') return 'intoStart';
  if (a.type === 'End') return 'fromEnd';
  if (template.routes.some((r) => r.from === from && r.to === to)) return 'duplicate';
  return null;
}

/**
 * Draws a route. A node that does not branch has one way out: a new route replaces its old one. A branch's routes
 * start without a condition: the route panel sets their rules or marks the else.
 */
export function connect(template: Template, from: string, to: string): Template {
  if (connectProblem(template, from, to)) return template;
  const source = template.activities.find((x) => x.code === from)!;
  const branches = source.type === 'Condition' || source.type === 'Parallel';
  const kept = branches ? template.routes : template.routes.filter((r) => r.from !== from);
  return { ...template, routes: [...kept, { from, to, isElse: false }] };
}

export function removeRoute(template: Template, from: string, to: string): Template {
  return { ...template, routes: template.routes.filter((r) => !(r.from === from && r.to === to)) };
}

/** Removes an activity and its routes; disapprove targets naming it fall back to the previous fill. Start stays. */
export function removeActivity(template: Template, code: string): Template {
  const target = template.activities.find((a) => a.code === code);
  if (!target || target.type === 'Start') return template;
  const activities = template.activities
    .filter((a) => a.code !== code)
    .map((a) => ('disapproveTarget' in a && a.disapproveTarget.type === 'activity' && a.disapproveTarget.code === code ? { ...a, disapproveTarget: { type: 'previousFill' as const } } : a));
  return { activities, routes: template.routes.filter((r) => r.from !== code && r.to !== code) };
}

export function updateActivity(template: Template, code: string, patch: Partial<Activity>): Template {
  return { ...template, activities: template.activities.map((a) => (a.code === code ? ({ ...a, ...patch, type: a.type, code: a.code } as Activity) : a)) };
}

export function updateRoute(template: Template, from: string, to: string, patch: Partial<Route>): Template {
  let routes = template.routes.map((r) => (r.from === from && r.to === to ? { ...r, ...patch } : r));
  // One else per node: marking a route else unmarks the others (and an else route has no condition).
  if (patch.isElse) routes = routes.map((r) => (r.from === from && r.to !== to && r.isElse ? { ...r, isElse: false } : r.from === from && r.to === to ? { ...r, condition: undefined } : r));
  return { ...template, routes };
}

/** Changes one flag of a field's permission and keeps it coherent: required ⇒ editable ⇒ visible. */
export function setFieldPermission(permissions: Record<string, FieldPermission>, field: string, key: keyof FieldPermission, value: boolean): Record<string, FieldPermission> {
  const p = { ...(permissions[field] ?? { visible: true, editable: false, required: false }), [key]: value };
  if (key === 'required' && value) p.editable = p.visible = true;
  if (key === 'editable' && value) p.visible = true;
  if (key === 'editable' && !value) p.required = false;
  if (key === 'visible' && !value) p.editable = p.required = false;
  return { ...permissions, [field]: p };
}

/**
 * Layers by the longest path from Start (routes closing a loop ignored), Ends at the bottom. A route that skips
 * layers holds a place in each layer it crosses, so nodes stand aside for it; each layer is ordered by where its
 * predecessors stand and centred on x = 0.
 */
export function autoLayout(template: Template): Template {
  const codes = template.activities.map((a) => a.code);
  const level = new Map<string, number>();
  const start = template.activities.find((a) => a.type === 'Start');
  if (start) level.set(start.code, 0);
  // Relaxation bounded by the node count: a loop cannot push a node further than that.
  for (let round = 0; round < codes.length; round++) {
    let changed = false;
    for (const r of template.routes) {
      const from = level.get(r.from);
      if (from === undefined || !codes.includes(r.to) || r.to === start?.code) continue;
      if (from + 1 < codes.length && (level.get(r.to) ?? -1) < from + 1) (level.set(r.to, from + 1), (changed = true));
    }
    if (!changed) break;
  }
  const deepest = Math.max(0, ...level.values());
  for (const c of codes) if (!level.has(c)) level.set(c, deepest + 1);
  const isEnd = (c: string) => template.activities.find((a) => a.code === c)?.type === 'End';
  const bottom = Math.max(0, ...[...level.entries()].filter(([c]) => !isEnd(c)).map(([, l]) => l)) + 1;
  for (const c of codes) if (isEnd(c) && level.get(c)! < bottom) level.set(c, bottom);

  const layers = new Map<number, string[]>();
  const put = (id: string, l: number) => layers.set(l, [...(layers.get(l) ?? []), id]);
  for (const c of codes) put(c, level.get(c)!);
  const preds = new Map<string, string[]>();
  const link = (from: string, to: string) => preds.set(to, [...(preds.get(to) ?? []), from]);
  template.routes.forEach((r, i) => {
    const a = level.get(r.from);
    const b = level.get(r.to);
    if (a === undefined || b === undefined || b <= a) return;
    let previous = r.from;
    for (let l = a + 1; l < b; l++) {
      const dummy = `~${i}~${l}`;
      put(dummy, l);
      link(previous, dummy);
      previous = dummy;
    }
    link(previous, r.to);
  });
  const x = new Map<string, number>();
  for (const l of [...layers.keys()].sort((p, q) => p - q)) {
    const members = layers.get(l)!;
    const key = (id: string, index: number) => {
      const placed = (preds.get(id) ?? []).filter((p) => x.has(p));
      return placed.length ? placed.reduce((sum, p) => sum + x.get(p)!, 0) / placed.length : index * COLUMN_GAP;
    };
    const ordered = members.map((id, index) => ({ id, index, key: key(id, index) })).sort((p, q) => p.key - q.key || p.index - q.index);
    ordered.forEach(({ id }, i) => x.set(id, Math.round((i - (ordered.length - 1) / 2) * COLUMN_GAP)));
  }
  return { ...template, activities: template.activities.map((a) => ({ ...a, position: { x: x.get(a.code)!, y: level.get(a.code)! * LAYER_GAP } })) };
}

/** The validator's issues by the activity they name; issues naming none under ''. */
export function issuesByActivity(issues: readonly TemplateIssue[]): Map<string, TemplateIssue[]> {
  const out = new Map<string, TemplateIssue[]>();
  for (const issue of issues) out.set(issue.activity ?? '', [...(out.get(issue.activity ?? '') ?? []), issue]);
  return out;
}

export const routeId = (r: { from: string; to: string }) => `${r.from}>${r.to}`;

/**
 * The template as sent to the server: sources still waiting for their people (an empty list) and conditions still
 * without rules are left out, so an unfinished panel never makes the whole design unreadable.
 */
export function forServer(template: Template): Template {
  const activities = template.activities.map((a) => {
    // A child flow's half-filled mapping rows stay in the designer only.
    if (a.type === 'ChildInstance') return { ...a, dataMaps: a.dataMaps.filter((m) => m.from && m.to) };
    if (!('participants' in a)) return a;
    const sources = a.participants.sources.filter((s) => ('ids' in s ? s.ids.length > 0 : s.type !== 'field' || !!s.code));
    return { ...a, participants: { ...a.participants, sources } } as Activity;
  });
  const routes = template.routes.map((r) => (r.condition && !r.condition.rules.length ? { ...r, condition: undefined } : r));
  return { activities, routes };
}

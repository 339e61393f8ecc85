import { z } from 'zod';
import { SchemaCode } from '../form-design/index.ts';
import { BizObjectId, BizRecord } from '../business-data/index.ts';
import { GANTT_MAX_PREDECESSORS, GANTT_MAX_TASKS } from '../../constants/limits.ts';
import { GANTT_TASK_TYPES } from '../../view-modes/gantt.ts';
import { modeNarrowing } from './modes.ts';

// The Gantt chart (view mode 4; docs/decisions/0054): its tasks (POST /v1/bizdata/view/gantt) and the task calls of
// calls.md §7 — POST /v1/gantt/task/update, changelevel, updatetype, sort, savedependency. The spec shows no payloads;
// every call names the Gantt view it acts through, whose settings say which fields hold the dates, the progress and
// the parent.

export const GanttTasksBody = z.strictObject(modeNarrowing);
export type GanttTasksBody = z.input<typeof GanttTasksBody>;

/** A finish-to-start link: `successor` starts after `predecessor` finishes. */
export const GanttLink = z.object({ predecessor: z.string(), successor: z.string() });
export type GanttLink = z.infer<typeof GanttLink>;

export const GanttTaskLayout = z.object({
  objectId: z.string(),
  /** The parent task (null at the top level, or when the chart has no levels). */
  parentId: z.string().nullable(),
  type: z.enum(GANTT_TASK_TYPES),
  /** The place among its siblings set by /sort; null keeps the start-date order, after the placed ones. */
  sort: z.number().int().nullable(),
});
export type GanttTaskLayout = z.infer<typeof GanttTaskLayout>;

export const GanttTasksResult = z.object({
  /** At most GANTT_MAX_TASKS records of the view, by start date. */
  list: z.array(BizRecord),
  total: z.number().int(),
  hasMore: z.boolean(),
  /** The field that holds a task's parent (the view's, or the tree form's), null for a flat chart. */
  parentField: z.string().nullable(),
  tasks: z.array(GanttTaskLayout),
  /** Links between the listed tasks. */
  links: z.array(GanttLink),
});
export type GanttTasksResult = z.infer<typeof GanttTasksResult>;

const task = { schemaCode: SchemaCode, viewCode: z.string().min(1).max(40), objectId: BizObjectId };
const When = z.iso.datetime({ offset: true });

/** Moves or resizes a task (and sets its progress): the view's start, end and progress fields, saved as the form saves. */
export const GanttUpdateBody = z
  .strictObject({ ...task, start: When.optional(), end: When.optional(), progress: z.number().min(0).max(100).optional() })
  .refine((b) => b.start !== undefined || b.end !== undefined || b.progress !== undefined, { message: '须指定开始时间、结束时间或进度', path: ['start'] })
  .refine((b) => !b.start || !b.end || Date.parse(b.start) <= Date.parse(b.end), { message: '结束时间不能早于开始时间', path: ['end'] });
export type GanttUpdateBody = z.input<typeof GanttUpdateBody>;

/** Puts a task under another one (null: at the top level): the parent field, saved as the form saves. */
export const GanttChangeLevelBody = z.strictObject({ ...task, parentId: BizObjectId.nullable() });
export type GanttChangeLevelBody = z.input<typeof GanttChangeLevelBody>;

export const GanttUpdateTypeBody = z.strictObject({ ...task, type: z.enum(GANTT_TASK_TYPES) });
export type GanttUpdateTypeBody = z.input<typeof GanttUpdateTypeBody>;

/** Sibling tasks in their new order (each gets its place; tasks left out keep theirs). */
export const GanttSortBody = z.strictObject({ schemaCode: SchemaCode, viewCode: task.viewCode, objectIds: z.array(BizObjectId).min(1).max(GANTT_MAX_TASKS) });
export type GanttSortBody = z.input<typeof GanttSortBody>;

/** A task's finish-to-start predecessors, all of them (an empty list removes its links). */
export const GanttSaveDependencyBody = z.strictObject({ ...task, predecessors: z.array(BizObjectId).max(GANTT_MAX_PREDECESSORS) });
export type GanttSaveDependencyBody = z.input<typeof GanttSaveDependencyBody>;

export const GanttTaskResult = z.object({ objectId: z.string() });
export const GanttSortResult = z.object({ sorted: z.number().int() });
export const GanttDependencyResult = z.object({ objectId: z.string(), predecessors: z.array(z.string()) });

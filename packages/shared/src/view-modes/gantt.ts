import { z } from 'zod';
import { ViewMode } from '../constants/views.ts';
import { GANTT_MAX_SWIMLANES } from '../constants/limits.ts';
import { ModeFieldRef } from './field-ref.ts';
import type { ViewModeDefinition } from './types.ts';

/** Where a Gantt chart keeps its finish-to-start links: the engine's table of task links, or nowhere (none drawn). */
export const GANTT_DEPENDENCY_STORAGES = ['table', 'none'] as const;
/** A task's kind on the chart: a bar from start to end, or a milestone (a diamond at its start). */
export const GANTT_TASK_TYPES = ['task', 'milestone'] as const;
export type GanttTaskType = (typeof GANTT_TASK_TYPES)[number];

/**
 * Gantt (甘特图; docs/decisions/0054): tasks by start and end, levels by a parent field (or, without one, the tree
 * form's parent control), progress, finish-to-start links, up to three swimlanes.
 */
export const ganttMode = {
  mode: ViewMode.Gantt,
  key: 'gantt',
  settings: z.strictObject({
    startField: ModeFieldRef,
    endField: ModeFieldRef,
    titleField: ModeFieldRef.default('Name'),
    progressField: ModeFieldRef.optional(),
    parentField: ModeFieldRef.optional(),
    swimlanes: z.array(ModeFieldRef).max(GANTT_MAX_SWIMLANES).default([]),
    dependencyStorage: z.enum(GANTT_DEPENDENCY_STORAGES).default('table'),
  }),
  fieldRoles: [
    { key: 'startField', kind: 'date', required: true },
    { key: 'endField', kind: 'date', required: true },
    { key: 'titleField', kind: 'text', required: true },
    { key: 'progressField', kind: 'number', required: false },
    { key: 'parentField', kind: 'selfParent', required: false },
    { key: 'swimlanes', kind: 'group', required: false, many: true },
  ],
  featureSwitch: 'ganttView',
} satisfies ViewModeDefinition;

/** Range searches of the map view, in metres (domain.md §3). */
export const MAP_RADII = [200, 500, 1000] as const;

/** Map (地图): records with a location as clustered markers; the tile source is a setting ('' = blank tiles). */
export const mapMode = {
  mode: ViewMode.Map,
  key: 'map',
  settings: z.strictObject({
    locationField: ModeFieldRef,
    titleField: ModeFieldRef.default('Name'),
    tileUrl: z.string().max(500).regex(/^(https?:\/\/\S+)?$/, '瓦片地址须以 http(s):// 开头').default(''),
    radius: z.union([z.literal(200), z.literal(500), z.literal(1000)]).default(500),
  }),
  fieldRoles: [
    { key: 'locationField', kind: 'location', required: true },
    { key: 'titleField', kind: 'text', required: true },
  ],
} satisfies ViewModeDefinition;

import { ViewMode } from '../constants/views.ts';
import { calendarMode, timelineMode } from './calendar.ts';
import { cardMode, mobileGridMode } from './card.ts';
import { ganttMode, mapMode } from './gantt.ts';
import { kanbanMode } from './kanban.ts';
import { hierarchyMode, listMode } from './plain-modes.ts';
import { fieldFits } from './field-kinds.ts';
import type { ModeFieldInfo, ViewModeDefinition } from './types.ts';

export * from './types.ts';
export * from './field-kinds.ts';
export { CARD_FIELDS_MAX } from './field-ref.ts';
export { CALENDAR_LAYOUTS, type CalendarLayout, TIMELINE_ZOOMS } from './calendar.ts';
export { KANBAN_PAGE_SIZES, KANBAN_COLUMNS_MAX } from './kanban.ts';
export { MOBILE_GRID_FIELDS_MAX } from './card.ts';
export { MAP_RADII, GANTT_DEPENDENCY_STORAGES, GANTT_TASK_TYPES, type GanttTaskType } from './gantt.ts';
export { calendarMode, timelineMode, cardMode, mobileGridMode, ganttMode, mapMode, kanbanMode, hierarchyMode, listMode };

// The view-mode registry (docs/decisions/0047): one entry per mode of domain.md §3, in the spec's order.
export const VIEW_MODES = [listMode, calendarMode, timelineMode, ganttMode, mapMode, hierarchyMode, cardMode, kanbanMode, mobileGridMode] as const;

const BY_NUMBER = new Map<number, ViewModeDefinition>(VIEW_MODES.map((m) => [m.mode, m]));

/** The registry's entry for a mode number; undefined for a number the spec does not name (3 is unused). */
export function viewModeOf(mode: number): ViewModeDefinition | undefined {
  return BY_NUMBER.get(mode);
}

export const VIEW_MODE_NUMBERS = VIEW_MODES.map((m) => m.mode) as ViewMode[];

/** Settings of the kanban mode, with defaults applied; and so on per mode. */
export type ModeSettings<M extends ViewModeDefinition> = ReturnType<M['settings']['parse']>;
export type KanbanSettings = ModeSettings<typeof kanbanMode>;
export type CalendarSettings = ModeSettings<typeof calendarMode>;
export type CardSettings = ModeSettings<typeof cardMode>;
export type MobileGridSettings = ModeSettings<typeof mobileGridMode>;
export type GanttSettings = ModeSettings<typeof ganttMode>;

/** A view's settings read through its mode's schema (defaults filled); throws on settings the save would refuse. */
export function settingsOf<M extends ViewModeDefinition>(definition: M, settings: unknown): ModeSettings<M> {
  return definition.settings.parse(settings ?? {}) as ModeSettings<M>;
}

/** Problems with the fields a mode's settings name: missing, unknown, or of the wrong kind. Paths are settings keys. */
export function checkModeFields(definition: ViewModeDefinition, settings: Record<string, unknown>, fields: ModeFieldInfo[], schemaCode: string): { path: string; message: string }[] {
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const issues: { path: string; message: string }[] = [];
  for (const role of definition.fieldRoles) {
    const value = settings[role.key];
    const codes = role.many ? ((value as string[] | undefined) ?? []) : value === undefined ? [] : [value as string];
    if (role.required && !codes.length) issues.push({ path: role.key, message: '须选择字段' });
    codes.forEach((code, i) => {
      const field = byCode.get(code);
      const path = role.many ? `${role.key}.${i}` : role.key;
      if (!field) issues.push({ path, message: `字段 ${code} 不存在` });
      else if (!fieldFits(role.kind, field, schemaCode)) issues.push({ path, message: `字段 ${code} 不能用作该设置` });
    });
  }
  return issues;
}

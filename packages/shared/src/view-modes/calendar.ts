import { z } from 'zod';
import { ViewMode } from '../constants/views.ts';
import { ModeFieldRef } from './field-ref.ts';
import type { ViewModeDefinition } from './types.ts';

export const CALENDAR_LAYOUTS = ['month', 'week', 'day', 'agenda'] as const;
export type CalendarLayout = (typeof CALENDAR_LAYOUTS)[number];

/** Calendar (日历): records placed by a start (and end) date, titled, coloured by an option's item colours. */
export const calendarMode = {
  mode: ViewMode.Calendar,
  key: 'calendar',
  settings: z.strictObject({
    startField: ModeFieldRef,
    endField: ModeFieldRef.optional(),
    titleField: ModeFieldRef.default('Name'),
    colorField: ModeFieldRef.optional(),
    layout: z.enum(CALENDAR_LAYOUTS).default('month'),
  }),
  fieldRoles: [
    { key: 'startField', kind: 'date', required: true },
    { key: 'endField', kind: 'date', required: false },
    { key: 'titleField', kind: 'text', required: true },
    { key: 'colorField', kind: 'option', required: false },
  ],
} satisfies ViewModeDefinition;

export const TIMELINE_ZOOMS = ['day', 'week', 'month'] as const;

/** Timeline (时间轴): records as bars on a time axis, in rows by a user or option field. */
export const timelineMode = {
  mode: ViewMode.Timeline,
  key: 'timeline',
  settings: z.strictObject({
    startField: ModeFieldRef,
    endField: ModeFieldRef,
    titleField: ModeFieldRef.default('Name'),
    groupField: ModeFieldRef.optional(),
    zoom: z.enum(TIMELINE_ZOOMS).default('week'),
  }),
  fieldRoles: [
    { key: 'startField', kind: 'date', required: true },
    { key: 'endField', kind: 'date', required: true },
    { key: 'titleField', kind: 'text', required: true },
    { key: 'groupField', kind: 'group', required: false },
  ],
} satisfies ViewModeDefinition;

import { z } from 'zod';
import { ViewMode } from '../constants/views.ts';
import { ModeFieldRef, ShownFields } from './field-ref.ts';
import type { ViewModeDefinition } from './types.ts';

/** Cards a kanban column loads at first and per "load more". */
export const KANBAN_PAGE_SIZES = [10, 20, 50] as const;
/** Columns a board shows at most (a group field of people can have many values). */
export const KANBAN_COLUMNS_MAX = 50;

/** Kanban (看板): columns by an option, user or status field; cards with a title and chosen fields. */
export const kanbanMode = {
  mode: ViewMode.Kanban,
  key: 'kanban',
  settings: z.strictObject({
    groupField: ModeFieldRef,
    titleField: ModeFieldRef.default('Name'),
    fields: ShownFields,
    coverField: ModeFieldRef.optional(),
    pageSize: z.union([z.literal(10), z.literal(20), z.literal(50)]).default(20),
  }),
  fieldRoles: [
    { key: 'groupField', kind: 'group', required: true },
    { key: 'titleField', kind: 'text', required: true },
    { key: 'coverField', kind: 'image', required: false },
    { key: 'fields', kind: 'any', required: false, many: true },
  ],
  featureSwitch: 'kanbanView',
} satisfies ViewModeDefinition;

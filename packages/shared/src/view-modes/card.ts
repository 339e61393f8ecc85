import { z } from 'zod';
import { ViewMode } from '../constants/views.ts';
import { ModeFieldRef, ShownFields } from './field-ref.ts';
import type { ViewModeDefinition } from './types.ts';

/** Card (卡片): a cover image from an attachment or photo field, a title and chosen fields. */
export const cardMode = {
  mode: ViewMode.Card,
  key: 'card',
  settings: z.strictObject({ coverField: ModeFieldRef.optional(), titleField: ModeFieldRef.default('Name'), fields: ShownFields }),
  fieldRoles: [
    { key: 'coverField', kind: 'image', required: false },
    { key: 'titleField', kind: 'text', required: true },
    { key: 'fields', kind: 'any', required: false, many: true },
  ],
  featureSwitch: 'cardView',
} satisfies ViewModeDefinition;

/** MobileGrid (移动端宫格): the phone's tiles — a title and up to four short fields. */
export const MOBILE_GRID_FIELDS_MAX = 4;
export const mobileGridMode = {
  mode: ViewMode.MobileGrid,
  key: 'mobileGrid',
  settings: z.strictObject({
    titleField: ModeFieldRef.default('Name'),
    fields: z.array(ModeFieldRef).max(MOBILE_GRID_FIELDS_MAX).default([]),
  }),
  fieldRoles: [
    { key: 'titleField', kind: 'text', required: true },
    { key: 'fields', kind: 'any', required: false, many: true },
  ],
} satisfies ViewModeDefinition;

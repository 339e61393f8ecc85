import { z } from 'zod';
import { ViewMode } from '../constants/views.ts';
import type { ViewModeDefinition } from './types.ts';

// The two modes that keep no settings of their own: the list (columns, sort and filters are the view's) and the
// hierarchy (its parent field stays on the view itself, docs/decisions/0023).

export const listMode = { mode: ViewMode.List, key: 'list', settings: z.strictObject({}), fieldRoles: [] } satisfies ViewModeDefinition;

export const hierarchyMode = {
  mode: ViewMode.Hierarchy, key: 'hierarchy', settings: z.strictObject({}), fieldRoles: [], featureSwitch: 'hierarchyView',
} satisfies ViewModeDefinition;

import type { contracts } from '@tritium/shared';
import type { FormScene } from '@tritium/shared/constants/form';
import type { ModeNarrowing, PageHeader, ViewSetting } from '../api/list-view-api.ts';

export type Row = Record<string, unknown> & { ObjectId: string };
export type ViewFieldInfo = PageHeader['columns'][number] | PageHeader['modeFields'][number];

/** What every mode's runtime gets from the list (docs/decisions/0047). */
export interface ModeRuntimeProps {
  schemaCode: string;
  view: ViewSetting;
  /** The view's narrowing as the list has it (scope, personal view, filter, quick search). */
  narrowing: ModeNarrowing;
  /** The view's columns and the fields its mode settings name, as the caller may see them. */
  fields: ViewFieldInfo[];
  definition: contracts.FormDefinition | undefined;
  /** The list's page of records (modes whose query is the list's own). */
  page?: { rows: Row[]; total: number; loading: boolean; index: number; size: number; onPage: (page: { index: number; size: number }) => void };
  /** Whether the caller may create records (a column's or a day's add button). */
  canCreate: boolean;
  onOpen: (row: Row) => void;
  /** Opens a new record with these values filled (in a form scene: a Gantt chart's GanttCreateNode). */
  onCreate: (initial: Record<string, unknown>, scene?: FormScene) => void;
  height: number;
  /** The mode the list shows the view in (the view's own, or one chosen in the toolbar's switcher). */
  shownAs: number;
}

/** Placements several control types share (domain.md §5 control-add results). */
import type { ControlPlacement } from './types.ts';

/** Inputs that may also be sub-table columns. */
export const ANYWHERE: ControlPlacement = { subTable: true, tab: true, layout: true };

/** Controls that belong to the whole record, not to a sub-table row. */
export const NOT_IN_SUB_TABLE: ControlPlacement = { subTable: false, tab: true, layout: true };

/** System controls: each shows one system column, so a form has at most one of each. */
export const ONE_PER_FORM: ControlPlacement = { subTable: false, tab: true, layout: true, onlyOne: true };

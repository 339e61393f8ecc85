import { z } from 'zod';
import { Filter } from '../../query/filter.ts';
import { SchemaCode } from '../form-design/index.ts';
import { BizObjectId, BizRecord } from '../business-data/index.ts';

// The Hierarchy view (view mode 6; docs/decisions/0023-tree-forms-and-hierarchy-view.md): POST
// /v1/bizdata/view/children answers one level of the tree at a time, a page of it, so a view of 100,000 records
// never loads at once. Kept apart from index.ts (which re-exports it) so it imports nothing from there.

export const HierarchyChildrenBody = z.strictObject({
  schemaCode: SchemaCode,
  /** A hierarchy view (mode 6) of the form; its parent field builds the tree. */
  viewCode: z.string().min(1).max(40),
  personalViewId: z.uuid().optional(),
  filter: Filter.optional(),
  keyword: z.string().trim().max(100).optional(),
  sort: z.array(z.strictObject({ field: z.string().min(1).max(127), direction: z.enum(['asc', 'desc']).default('asc') })).max(3).optional(),
  /** The record whose children are asked; absent or null for the roots (no parent, or a parent that is gone). */
  parentId: BizObjectId.nullable().optional(),
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.union([z.literal(10), z.literal(20), z.literal(50), z.literal(100), z.literal(200), z.literal(500)]).default(50),
});
export type HierarchyChildrenBody = z.input<typeof HierarchyChildrenBody>;

export const HierarchyChildrenResult = z.object({
  /** The rows of this level (the view's narrowing applies), each with `$childCount`: its children in the view. */
  list: z.array(BizRecord),
  total: z.number().int(),
  hasMore: z.boolean(),
  /** The level of these rows: 1 for the roots. */
  level: z.number().int(),
  /** The parent field the tree follows. */
  parentField: z.string(),
  /** Records the whole view holds (asked with the roots only; the limit is 100,000). */
  viewTotal: z.number().int().optional(),
});
export type HierarchyChildrenResult = z.infer<typeof HierarchyChildrenResult>;

/** The row property carrying how many children a record has in the view. */
export const CHILD_COUNT_KEY = '$childCount';

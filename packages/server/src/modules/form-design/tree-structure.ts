import { sql } from 'kysely';
import type { contracts } from '@tritium/shared';
import { TREE_FORM_LIMITS, TREE_LIMIT_MESSAGE } from '@tritium/shared/constants/limits';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { flattenControls } from './form-model.ts';
import { fitIdentifier, hash8 } from './table-names.ts';

// Tree-structured forms (domain.md §5 "Tree structure"; docs/decisions/0023): the parent control of a tree form, the
// index on its column, and the walk over the rows that the designer's check and publishing share. Every walk is a
// recursive CTE on the indexed parent column: rows never come to Node.

const same = (a: string | null | undefined, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();

/**
 * The parent control of a definition with tree display on: a main-table association query pointing to the same form
 * (`schemaCode`); null when tree display is off or the control does not fit. `code` checks another control instead
 * of the saved attribute.
 */
export function treeParentControl(definition: contracts.FormDefinition, schemaCode: string, code = definition.attributes.treeStructureControlCode): string | null {
  if (!code) return null;
  const place = flattenControls(definition.controls).find((p) => !p.gridCode && same(p.control.code, code));
  if (!place || place.type.key !== 'associationQuery') return null;
  if (!same((place.control.options as { schemaCode?: string | null }).schemaCode, schemaCode)) return null;
  return place.control.code;
}

/** The tree parent control when tree display is on (attributes.isTreeStructure), else null. */
export const activeTreeParent = (definition: contracts.FormDefinition, schemaCode: string): string | null =>
  definition.attributes.isTreeStructure ? treeParentControl(definition, schemaCode) : null;

/** The index on a parent column: xh_<table>_<hash of the column> (docs/decisions/0006 naming). */
export const treeParentIndexName = (table: string, column: string): string => fitIdentifier(`xh_${table.replace(/^i_/, '')}_${hash8(column)}`);

/** Creates the parent column's B-tree index when missing (children are found by parent; the walks go down by it). */
export async function ensureTreeParentIndex(edb: EngineExecutor, schema: string, table: string, column: string): Promise<void> {
  await sql`create index if not exists ${sql.id(treeParentIndexName(table, column))} on ${sql.id(schema, table)} (${sql.id(column)})`.execute(edb);
}

export interface TreeShape {
  /** Rows of the table. */
  records: number;
  /** The deepest level reached from the roots (at most one past `maxLevels`). */
  levels: number;
  /** Rows reached from a root: fewer than `records` means some rows sit in a cycle. */
  reached: number;
}

/**
 * Counts the rows, then (within the record limit) walks down from the roots (no parent, or a parent that does not
 * exist), one level past `maxLevels` at most. Rows in a cycle are never reached from a root.
 */
export async function treeShape(edb: EngineExecutor, schema: string, table: string, column: string, maxLevels: number = TREE_FORM_LIMITS.maxLevels): Promise<TreeShape> {
  const ref = sql.id(schema, table);
  const parent = sql.id(column);
  const count = await sql<{ n: number }>`select count(*)::int as n from ${ref}`.execute(edb);
  const records = count.rows[0].n;
  // Past the record limit the answer is known: no walk.
  if (records > TREE_FORM_LIMITS.maxRecords) return { records, levels: 0, reached: 0 };
  const walk = await sql<{ reached: number; levels: number }>`
    with recursive walk(id, depth) as (
      select t."ObjectId", 1 from ${ref} t
      where t.${parent} is null or t.${parent} = '' or not exists (select 1 from ${ref} p where p."ObjectId"::text = t.${parent})
      union all
      select c."ObjectId", w.depth + 1 from ${ref} c join walk w on c.${parent} = w.id::text
      where w.depth <= ${maxLevels}
    )
    select count(distinct id)::int as reached, coalesce(max(depth), 0)::int as levels from walk`.execute(edb);
  return { records, ...walk.rows[0] };
}

/** What is wrong with a shape under the tree form's limits, or null. */
export function treeShapeProblem(shape: TreeShape): 'tooManyRecords' | 'tooDeep' | 'cycle' | null {
  if (shape.records > TREE_FORM_LIMITS.maxRecords) return 'tooManyRecords';
  if (shape.levels > TREE_FORM_LIMITS.maxLevels) return 'tooDeep';
  if (shape.reached < shape.records) return 'cycle';
  return null;
}

/**
 * Publishing a form with tree display on: its parent column gets its index, and turning tree display on (or moving
 * it to another control) over rows that break the limits is refused (240090, `detail` as checktreestructure says).
 */
export async function publishTreeStructure(
  edb: EngineExecutor,
  input: { schema: string; schemaCode: string; table: string; published: contracts.FormDefinition | null; draft: contracts.FormDefinition },
): Promise<void> {
  const parent = activeTreeParent(input.draft, input.schemaCode);
  if (!parent) return;
  await ensureTreeParentIndex(edb, input.schema, input.table, parent);
  if (input.published && activeTreeParent(input.published, input.schemaCode) === parent) return;
  const shape = await treeShape(edb, input.schema, input.table, parent);
  const problem = treeShapeProblem(shape);
  if (problem) throw new AppError('TreeStructureInvalid', { detail: { problem, records: shape.records, levels: shape.levels, message: TREE_LIMIT_MESSAGE } });
}

import { sql } from 'kysely';
import { TREE_FORM_LIMITS } from '@tritium/shared/constants/limits';
import { engineSchemaName } from '../../db/database.ts';
import { AppError, parameterError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { activeTreeParent } from '../form-design/tree-structure.ts';
import { countRecords, lockFormData } from './records.repo.ts';
import type { RuntimeForm } from './runtime-form.ts';

// Saving a record of a tree-structured form (domain.md §5 "Tree structure"; docs/decisions/0023): at most 10,000
// records while tree display is on, and a parent that neither makes a cycle nor puts any record deeper than 10
// levels. The walks are recursive CTEs on the primary key (up) and the indexed parent column (down), bounded one
// step past the limit, so a record's ancestors and descendants never come to Node.

/** The limits a save checks; tests may lower them (never above the spec's). */
export const treeSaveLimits: { maxLevels: number; maxRecords: number } = { ...TREE_FORM_LIMITS };

const blank = (v: unknown) => v === null || v === undefined || v === '';

export interface TreeSave {
  objectId: string;
  isNew: boolean;
  /** The record's values before the save (undefined for a new record) and after it. */
  before: Record<string, unknown> | undefined;
  after: Record<string, unknown>;
}

/**
 * Refuses (inside the save's transaction, before the row is written) a new record past the record limit (250092),
 * a parent that is the record itself or one of its descendants (250090), and a parent that would put the record
 * or its deepest descendant below level 10 (250091). Saves of one tree form are serialised by the form's data lock,
 * so two moves cannot make a cycle together.
 */
export async function checkTreeSave(edb: EngineExecutor, engineCode: string, form: RuntimeForm, save: TreeSave): Promise<void> {
  const parentField = activeTreeParent(form.definition, form.node.code);
  if (!parentField) return;
  const oldParent = save.before?.[parentField];
  const newParent = save.after[parentField];
  const parentChanged = save.isNew ? !blank(newParent) : String(oldParent ?? '') !== String(newParent ?? '');
  if (!save.isNew && !parentChanged) return;
  await lockFormData(edb, engineCode, form.node.code);
  const limits = treeSaveLimits;
  if (save.isNew) {
    const records = await countRecords(edb, form);
    if (records >= limits.maxRecords) throw new AppError('TreeTooManyRecords', { detail: { records, maxRecords: limits.maxRecords } });
  }
  if (blank(newParent)) return;
  const parentId = String(newParent);
  const issue = (message: string) => ({ issues: [{ path: `values.${parentField}`, message }] });
  if (parentId === save.objectId) throw new AppError('TreeParentCycle', { detail: { parentId, ...issue('上级数据不能是本条数据') } });
  const table = sql.id(engineSchemaName(engineCode), form.mainTable);
  const parent = sql.id(parentField);
  // Up from the new parent: its level (records from it to its root) and whether the record is among them.
  const up = await sql<{ depth: number; hitsSelf: boolean }>`
    with recursive up(id, parent, depth) as (
      select t."ObjectId"::text, t.${parent}, 1 from ${table} t where t."ObjectId"::text = ${parentId}
      union all
      select t."ObjectId"::text, t.${parent}, u.depth + 1 from ${table} t join up u on t."ObjectId"::text = u.parent
      where u.depth <= ${limits.maxLevels} and u.id <> ${save.objectId}
    )
    select coalesce(max(depth), 0)::int as depth, coalesce(bool_or(id = ${save.objectId}), false) as "hitsSelf" from up`.execute(edb);
  const { depth, hitsSelf } = up.rows[0];
  if (hitsSelf) throw new AppError('TreeParentCycle', { detail: { parentId, ...issue('上级数据不能是本条数据的下级') } });
  // The parent must be a record of this form; a chain longer than the limit above it is too deep already.
  if (depth === 0) throw parameterError(issue('上级数据不存在').issues);
  // Down from the record (an existing one may carry descendants along): the height of its subtree, 1 for a leaf.
  let height = 1;
  if (!save.isNew && depth < limits.maxLevels) {
    const down = await sql<{ height: number }>`
      with recursive down(id, depth) as (
        select ${save.objectId}::text, 1
        union all
        select c."ObjectId"::text, d.depth + 1 from ${table} c join down d on c.${parent} = d.id
        where d.depth <= ${limits.maxLevels - depth}
      )
      select max(depth)::int as height from down`.execute(edb);
    height = down.rows[0].height;
  }
  if (depth + height > limits.maxLevels) {
    throw new AppError('TreeTooDeep', { detail: { parentId, levels: depth + height, maxLevels: limits.maxLevels } });
  }
}

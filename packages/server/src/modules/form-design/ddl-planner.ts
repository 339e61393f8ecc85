import { sql, type RawBuilder } from 'kysely';
import type { contracts } from '@tritium/shared';
import type { ControlSqlType } from '@tritium/shared/controls/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { ColumnModel, FormModel } from './form-model.ts';
import { relationNameFree, type CustomIndexRow } from './form-design.repo.ts';
import { childTableBase, gridKeyOf, mainTableBase, tableNameCandidates } from './table-names.ts';
import { conversionOf, hasValue, type Conversion } from './type-conversion.ts';

// Publishing, step 1 (docs/decisions/0006 "Publishing"): the changes that take the published tables to the draft,
// each with the rows it would cost. Reads only; the executor applies the plan.

/** PostgreSQL allows 1600 columns per table, columns dropped earlier included. */
const MAX_TABLE_COLUMNS = 1600;
/** Columns every main table has (SYSTEM_FIELDS less ParentObjectId); a sub-table has 3. */
export const MAIN_SYSTEM_COLUMN_COUNT = 11;
export const CHILD_SYSTEM_COLUMN_COUNT = 3;

export interface TypeChange {
  column: string;
  to: ControlSqlType;
  conversion: Conversion;
}

/** What happens to one table. `create` set: a new table with these data columns; otherwise the alterations. */
export interface TableWork {
  table: string;
  gridKey: string;
  gridCode?: string;
  create?: ColumnModel[];
  renames: { from: string; to: string }[];
  drops: string[];
  typeChanges: TypeChange[];
  adds: ColumnModel[];
}

export interface PublishPlan {
  changes: contracts.SchemaChange[];
  main: TableWork;
  children: TableWork[];
  dropChildren: { table: string; gridKey: string }[];
  droppedIndexes: string[];
  /** Custom indexes whose fields were renamed (a code's case changed): their new field lists. */
  renamedIndexFields: { indexName: string; fields: string[] }[];
}

export interface PlanInput {
  schema: string;
  schemaCode: string;
  /** Existing tables: grid key → table name (form_tables). */
  tables: Map<string, string>;
  published: FormModel;
  draft: FormModel;
  customIndexes: CustomIndexRow[];
}

const emptyWork = (table: string, gridKey: string, gridCode?: string): TableWork => ({ table, gridKey, gridCode, renames: [], drops: [], typeChanges: [], adds: [] });
const key = (table: string, column?: string) => (column ? `${table}.${column}` : table);
const byLowerCode = <T extends { code: string }>(list: readonly T[]) => new Map(list.map((c) => [c.code.toLowerCase(), c]));

/** Counts several conditions over one table in one scan. */
async function countWhere(edb: EngineExecutor, schema: string, table: string, conditions: RawBuilder<unknown>[]): Promise<number[]> {
  if (!conditions.length) return [];
  const columns = sql.join(conditions.map((c, i) => sql`count(*) filter (where ${c})::int as ${sql.id(`c${i}`)}`));
  const r = await sql<Record<string, number>>`select ${columns} from ${sql.id(schema, table)}`.execute(edb);
  return conditions.map((_, i) => Number(r.rows[0][`c${i}`]));
}

async function countRows(edb: EngineExecutor, schema: string, table: string): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(schema, table)}`.execute(edb);
  return r.rows[0].n;
}

/** Columns of an existing table, dropped ones included (they still count towards PostgreSQL's limit). */
async function attributeCount(edb: EngineExecutor, schema: string, table: string): Promise<number> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace s on s.oid = c.relnamespace
    where s.nspname = ${schema} and c.relname = ${table} and a.attnum > 0`.execute(edb);
  return r.rows[0].n;
}

/** Compares the published columns of one existing table with the draft's, counting what would be lost. */
async function diffTable(edb: EngineExecutor, input: PlanInput, work: TableWork, from: ColumnModel[], to: ColumnModel[], changes: contracts.SchemaChange[]): Promise<void> {
  const { schema } = input;
  const fromByKey = byLowerCode(from);
  const toByKey = byLowerCode(to);
  // Changes in order (drops, then additions and conversions); those that may lose data get their count below.
  const ordered: contracts.SchemaChange[] = [];
  const pending: { change: contracts.SchemaChange; condition: RawBuilder<unknown> }[] = [];
  const base = { table: work.table, ...(work.gridCode ? { gridCode: work.gridCode } : {}) };
  for (const f of from) {
    if (toByKey.has(f.code.toLowerCase())) continue;
    work.drops.push(f.code);
    const change: contracts.SchemaChange = { kind: 'dropColumn', key: key(work.table, f.code), ...base, column: f.code, from: f.sqlType, needsConfirmation: false };
    ordered.push(change);
    pending.push({ change, condition: hasValue(sql.id(f.code), f.sqlType) });
  }
  for (const t of to) {
    const f = fromByKey.get(t.code.toLowerCase());
    if (!f) {
      work.adds.push(t);
      ordered.push({ kind: 'addColumn', key: key(work.table, t.code), ...base, column: t.code, to: t.sqlType, needsConfirmation: false });
      continue;
    }
    if (f.code !== t.code) {
      work.renames.push({ from: f.code, to: t.code });
      ordered.push({ kind: 'renameColumn', key: key(work.table, t.code), ...base, column: t.code, from: f.code, to: t.code, needsConfirmation: false });
    }
    if (f.sqlType === t.sqlType) continue;
    // The executor renames first, so the applied conversion names the new column; the count reads the current one.
    work.typeChanges.push({ column: t.code, to: t.sqlType, conversion: conversionOf(sql.id(t.code), f.sqlType, t.sqlType) });
    const counted = conversionOf(sql.id(f.code), f.sqlType, t.sqlType);
    const change: contracts.SchemaChange = { kind: 'changeType', key: key(work.table, t.code), ...base, column: t.code, from: f.sqlType, to: t.sqlType, needsConfirmation: false };
    ordered.push(change);
    if (counted.lost) pending.push({ change, condition: sql`${hasValue(sql.id(f.code), f.sqlType)} and ${counted.lost}` });
  }
  const counts = await countWhere(edb, schema, work.table, pending.map((p) => p.condition));
  pending.forEach((p, i) => Object.assign(p.change, { affectedRows: counts[i], needsConfirmation: counts[i] > 0 }));
  changes.push(...ordered);
  if (work.adds.length && (await attributeCount(edb, schema, work.table)) + work.adds.length > MAX_TABLE_COLUMNS) {
    throw new AppError('FormTooManyColumns', { detail: { table: work.table, max: MAX_TABLE_COLUMNS } });
  }
}

/** A table name nobody uses: the preferred one, or a salted variant (a removed form may have left its table). */
async function chooseTableName(edb: EngineExecutor, schema: string, base: string, taken: Set<string>): Promise<string> {
  for (const name of tableNameCandidates(base)) {
    if (!taken.has(name) && (await relationNameFree(edb, schema, name))) {
      taken.add(name);
      return name;
    }
  }
  throw new Error('unreachable');
}

function assertColumnCount(columns: number, systemColumns: number, table: string): void {
  if (columns + systemColumns > MAX_TABLE_COLUMNS) throw new AppError('FormTooManyColumns', { detail: { table, max: MAX_TABLE_COLUMNS - systemColumns } });
}

export async function planPublish(edb: EngineExecutor, input: PlanInput): Promise<PublishPlan> {
  const { schema, schemaCode, tables, published, draft } = input;
  const changes: contracts.SchemaChange[] = [];
  const taken = new Set<string>();
  const plan: PublishPlan = { changes, main: emptyWork('', ''), children: [], dropChildren: [], droppedIndexes: [], renamedIndexFields: [] };

  // Sub-tables that go: every row they hold would be lost.
  const draftChildren = byLowerCode(draft.children);
  for (const child of published.children) {
    const gridKey = gridKeyOf(child.code);
    const table = tables.get(gridKey);
    if (draftChildren.has(gridKey) || !table) continue;
    const rows = await countRows(edb, schema, table);
    plan.dropChildren.push({ table, gridKey });
    changes.push({ kind: 'dropChildTable', key: key(table), table, gridCode: child.code, affectedRows: rows, needsConfirmation: rows > 0 });
  }

  const mainTable = tables.get('');
  assertColumnCount(draft.columns.length, MAIN_SYSTEM_COLUMN_COUNT, mainTable ?? mainTableBase(schemaCode));
  if (mainTable) {
    plan.main = emptyWork(mainTable, '');
    await diffTable(edb, input, plan.main, published.columns, draft.columns, changes);
  } else {
    const table = await chooseTableName(edb, schema, mainTableBase(schemaCode), taken);
    plan.main = { ...emptyWork(table, ''), create: draft.columns };
    changes.push({ kind: 'createTable', key: key(table), table, needsConfirmation: false });
  }

  const publishedChildren = byLowerCode(published.children);
  for (const child of draft.children) {
    const gridKey = gridKeyOf(child.code);
    const table = tables.get(gridKey);
    const before = publishedChildren.get(gridKey);
    assertColumnCount(child.columns.length, CHILD_SYSTEM_COLUMN_COUNT, table ?? childTableBase(schemaCode, child.code));
    if (table && before) {
      const work = emptyWork(table, gridKey, child.code);
      await diffTable(edb, input, work, before.columns, child.columns, changes);
      plan.children.push(work);
    } else {
      const name = await chooseTableName(edb, schema, childTableBase(schemaCode, child.code), taken);
      plan.children.push({ ...emptyWork(name, gridKey, child.code), create: child.columns });
      changes.push({ kind: 'createChildTable', key: key(name), table: name, gridCode: child.code, needsConfirmation: false });
    }
  }

  planIndexChanges(plan, input.customIndexes);
  return plan;
}

/** Custom indexes on a dropped column go with it (PostgreSQL drops them); renamed columns are renamed in their fields. */
function planIndexChanges(plan: PublishPlan, indexes: CustomIndexRow[]): void {
  const dropped = new Set(plan.main.drops);
  const renamed = new Map(plan.main.renames.map((r) => [r.from, r.to]));
  for (const index of indexes) {
    if (index.fields.some((f) => dropped.has(f))) {
      plan.droppedIndexes.push(index.index_name);
      plan.changes.push({ kind: 'dropIndex', key: index.index_name, table: plan.main.table, column: index.fields.join(','), needsConfirmation: false });
    } else if (index.fields.some((f) => renamed.has(f))) {
      plan.renamedIndexFields.push({ indexName: index.index_name, fields: index.fields.map((f) => renamed.get(f) ?? f) });
    }
  }
}

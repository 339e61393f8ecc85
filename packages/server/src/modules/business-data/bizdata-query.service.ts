import { sql } from 'kysely';
import type { contracts } from '@tritium/shared';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { fromColumn, toColumn } from './field-values.ts';
import { presentChildRow, presentRecord, presentSystem } from './record.presenter.ts';
import { childRowsOf, findRecord, findRecordsByIds, SYSTEM_COLUMNS } from './records.repo.ts';
import { anyDb, getRuntimeFormOrThrow, type DataField, type RuntimeForm } from './runtime-form.ts';

// Lists and lookups of records (calls.md §7: POST /v1/bizdata/query, /property/value; "get business objects by ids").
// Filters and sorts compile to SQL on the form's columns (architecture.md §2); nothing filters rows in JavaScript.

/** pageSize -1 ("all rows", api-conventions.md) is served up to this many rows. */
export const QUERY_ALL_CAP = 1000;

type Column = Pick<DataField, 'sqlType'> & { code: string };

const SYSTEM_TYPES: Record<string, DataField['sqlType']> = { Status: 'integer', CreatedTime: 'timestamptz', ModifiedTime: 'timestamptz' };

/** A main-table column by its code (control codes exactly, system fields by name). */
function columnOf(form: RuntimeForm, code: string): Column | undefined {
  const field = form.fields.find((f) => f.code === code);
  if (field) return field;
  if ((SYSTEM_COLUMNS as readonly string[]).includes(code)) return { code, sqlType: SYSTEM_TYPES[code] ?? 'text' };
  return undefined;
}

const sortable = (c: Column) => c.sqlType !== 'jsonb' && c.sqlType !== 'text[]';

export async function queryRecords(ctx: NodeContext, body: { schemaCode: string; pageIndex: number; pageSize: number; filters?: { field: string; value: unknown }[]; status?: number[]; sort?: { field: string; direction: 'asc' | 'desc' }[] }): Promise<contracts.BizQueryResult> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const issues: { path: string; message: string }[] = [];
  let where = anyDb(edb).selectFrom(form.mainTable);
  (body.filters ?? []).forEach((f, i) => {
    const column = columnOf(form, f.field);
    if (!column || !sortable(column)) return issues.push({ path: `filters.${i}.field`, message: '不能按该字段筛选' });
    where = f.value === null ? where.where(column.code, 'is', null) : where.where(column.code, '=', toColumn(column, f.value));
  });
  if (body.status?.length) where = where.where('Status', 'in', body.status);
  const sorts = (body.sort ?? []).map((s, i) => {
    const column = columnOf(form, s.field);
    if (!column || !sortable(column)) issues.push({ path: `sort.${i}.field`, message: '不能按该字段排序' });
    return { code: s.field, direction: s.direction };
  });
  if (issues.length) throw parameterError(issues);
  const { total } = await where.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  const all = body.pageSize === -1;
  if (all && Number(total) > QUERY_ALL_CAP) throw parameterError([{ path: 'pageSize', message: `数据超过${QUERY_ALL_CAP}条，请分页查询` }]);
  const size = all ? QUERY_ALL_CAP : body.pageSize;
  const offset = all ? 0 : body.pageIndex * size;
  let q = where.selectAll();
  for (const s of sorts) q = q.orderBy(s.code, s.direction);
  q = q.orderBy('CreatedTime', 'desc').orderBy('ObjectId', 'desc');
  const rows = await q.limit(size).offset(offset).execute();
  return { list: rows.map((r) => presentRecord(form, r)), total: Number(total), hasMore: offset + rows.length < Number(total) };
}

/** One property of a record: a control's value, a system field, or a sub-table's rows. */
export async function propertyValue(ctx: NodeContext, body: { schemaCode: string; objectId: string; propertyCode: string }) {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const row = await findRecord(edb, form, body.objectId);
  if (!row) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
  const grid = form.grids.find((g) => g.code === body.propertyCode);
  if (grid) return { value: (await childRowsOf(edb, grid, [body.objectId])).map((r) => presentChildRow(grid, r)) };
  const field = form.fields.find((f) => f.code === body.propertyCode);
  if (field) return { value: fromColumn(field, row[field.code]) };
  const system = presentSystem(row) as Record<string, unknown>;
  if (body.propertyCode in system) return { value: system[body.propertyCode] };
  throw new AppError('BizPropertyNotFound', { detail: { propertyCode: body.propertyCode } });
}

/** Records by ids (≤ 500), in the order asked; ids not found are left out. */
export async function recordsByIds(ctx: NodeContext, body: { schemaCode: string; objectIds: string[] }) {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const rows = new Map((await findRecordsByIds(edb, form, [...new Set(body.objectIds)])).map((r) => [String(r.ObjectId), r]));
  return { list: body.objectIds.flatMap((id) => (rows.has(id) ? [presentRecord(form, rows.get(id)!)] : [])) };
}

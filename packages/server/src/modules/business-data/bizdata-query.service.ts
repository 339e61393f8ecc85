import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { fromColumn } from './field-values.ts';
import { presentChildRow, presentRecord, presentSystem, visibleFields, visibleGrids } from './record.presenter.ts';
import { canReadRecord, readableIds } from './record-policy.ts';
import { childRowsOf, findRecord, findRecordsByIds } from './records.repo.ts';
import { getRuntimeFormOrThrow } from './runtime-form.ts';

// Lookups of records (calls.md §7: POST /v1/bizdata/property/value; "get business objects by ids"). Lists and
// filters are the query engine's (modules/query, docs/decisions/0013).

/** One property of a record: a control's value, a system field, or a sub-table's rows. */
export async function propertyValue(ctx: NodeContext, body: { schemaCode: string; objectId: string; propertyCode: string }) {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const row = await findRecord(edb, form, body.objectId);
  if (!row || !(await canReadRecord(edb, form, row, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
  // Hidden fields and sub-tables are no properties for the caller (docs/decisions/0037).
  const grid = visibleGrids(form).find((g) => g.code === body.propertyCode);
  if (grid) return { value: (await childRowsOf(edb, grid, [body.objectId])).map((r) => presentChildRow(grid, r)) };
  const field = visibleFields(form).find((f) => f.code === body.propertyCode);
  if (field) return { value: fromColumn(field, row[field.code]) };
  const system = presentSystem(row) as Record<string, unknown>;
  if (body.propertyCode in system) return { value: system[body.propertyCode] };
  throw new AppError('BizPropertyNotFound', { detail: { propertyCode: body.propertyCode } });
}

/** Records by ids (≤ 500), in the order asked; ids not found are left out. */
export async function recordsByIds(ctx: NodeContext, body: { schemaCode: string; objectIds: string[] }) {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const ids = await readableIds(edb, form, [...new Set(body.objectIds)], ctx.userId);
  const rows = new Map((await findRecordsByIds(edb, form, [...ids])).map((r) => [String(r.ObjectId), r]));
  return { list: body.objectIds.flatMap((id) => (rows.has(id) ? [presentRecord(form, rows.get(id)!)] : [])) };
}

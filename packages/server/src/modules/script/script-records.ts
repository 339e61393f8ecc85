import { z } from 'zod';
import { Filter, FilterField, FilterValue, type QueryNode } from '@tritium/shared/query/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import { childRowsOf, deleteRecord, findRecord } from '../business-data/records.repo.ts';
import { presentChildRow, presentRecord, visibleGrids } from '../business-data/record.presenter.ts';
import { assertMayChange, assertRemovable, canReadRecord } from '../business-data/record-policy.ts';
import { beforeRecordRemoved } from '../business-data/record-hooks-port.ts';
import { dropRecordFiles } from '../business-data/record-files.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { queryWindow } from '../query/query.service.ts';
import { ScriptCallError } from './sandbox-errors.ts';

// ctx.records and ctx.asSystem().records (docs/decisions/0118): reads through the query engine, writes through the
// record service, in the caller's transaction and engine schema. With the caller's rights by default; as the system,
// with an administrator's standing and the business rules' edit right.

/** One script call's standing: the caller's (their rights) or the system's. */
export interface RecordsActor {
  edb: EngineExecutor;
  /** Who acts, with `db` the caller's transaction (so the query engine reads inside it). */
  ctx: NodeContext;
  system: boolean;
  /** Stored files writes no longer reference: their bytes go after the commit. */
  dropped: string[];
}

/** A page of a query holds at most this many records. */
export const SCRIPT_PAGE_MAX = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SchemaCode = z.string({ error: '表单编码须为文本' }).trim().min(1, '表单编码不能为空').max(128);
const ObjectId = z.string({ error: '数据 ID 须为文本' }).min(1).max(64);
const Values = z.record(z.string(), z.unknown(), { error: '字段值须为对象，如 { Amount: 100 }' });
const Children = z.record(z.string(), z.array(Values, { error: '子表须为数组' }));

const OPERATORS = { '=': 'Equal', '!=': 'NotEqual', '>': 'Above', '>=': 'NotBelow', '<': 'Below', '<=': 'NotAbove', contains: 'Contains', in: 'In', empty: 'IsBlank', notEmpty: 'NotBlank' } as const;
type ScriptFilter = { field: string; op: keyof typeof OPERATORS; value?: FilterValue } | { and: ScriptFilter[] } | { or: ScriptFilter[] };
const ScriptFilter: z.ZodType<ScriptFilter> = z.lazy(() =>
  z.union([
    z.strictObject({ field: FilterField, op: z.enum(Object.keys(OPERATORS) as [keyof typeof OPERATORS]), value: FilterValue.optional() }),
    z.strictObject({ and: z.array(ScriptFilter) }),
    z.strictObject({ or: z.array(ScriptFilter) }),
  ]),
);

const Sort = z.strictObject({ field: FilterField, direction: z.enum(['asc', 'desc']).default('asc') });
const QueryOptions = z.strictObject({
  filter: ScriptFilter.nullish(),
  sort: z.union([Sort, z.array(Sort).max(5)]).optional(),
  page: z.number().int().min(1, '页码从 1 开始').default(1),
  pageSize: z.number().int().min(1).max(SCRIPT_PAGE_MAX, `每页最多 ${SCRIPT_PAGE_MAX} 条`).default(50),
});

/** Arguments checked; a mistake answers the script with the path and the reason. */
export function checked<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ScriptCallError(`参数错误${issue.path.length ? `（${issue.path.join('.')}）` : ''}：${issue.message}`);
}

function toQueryNode(filter: ScriptFilter): QueryNode {
  if ('and' in filter) return { type: 'And', children: filter.and.map(toQueryNode) };
  if ('or' in filter) return { type: 'Or', children: filter.or.map(toQueryNode) };
  const operator = OPERATORS[filter.op];
  return operator === 'IsBlank' || operator === 'NotBlank' ? { field: filter.field, operator } : { field: filter.field, operator, value: filter.value ?? null };
}

/** The filter as the query engine takes it, within its depth and size limits. */
function queryFilter(filter: ScriptFilter | null | undefined): QueryNode | undefined {
  if (!filter) return undefined;
  const node = toQueryNode(filter);
  checked(Filter, node);
  return node;
}

const formOf = (actor: RecordsActor, schemaCode: string): Promise<RuntimeForm> => getRuntimeFormOrThrow(actor.edb, actor.ctx, schemaCode);

async function readable(actor: RecordsActor, form: RuntimeForm, objectId: string) {
  // A text that is no uuid names no record (the key columns are uuid); another engine's ids are not in this schema.
  if (!UUID.test(objectId)) return undefined;
  const row = await findRecord(actor.edb, form, objectId);
  return row && (actor.system || (await canReadRecord(actor.edb, form, row, actor.ctx.userId))) ? row : undefined;
}

/** One record with its sub-tables' rows (the fields the caller may see), or null. */
export async function getRecord(actor: RecordsActor, args: unknown): Promise<Record<string, unknown> | null> {
  const a = checked(z.object({ schemaCode: SchemaCode, objectId: ObjectId }), args);
  const form = await formOf(actor, a.schemaCode);
  const row = await readable(actor, form, a.objectId);
  if (!row) return null;
  const record = presentRecord(form, row);
  for (const grid of form.rights.fields.size ? visibleGrids(form) : form.grids) record[grid.code] = (await childRowsOf(actor.edb, grid, [a.objectId])).map((r) => presentChildRow(grid, r));
  return record;
}

export async function queryRecords(actor: RecordsActor, args: unknown): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const a = checked(z.object({ schemaCode: SchemaCode, options: QueryOptions }), args);
  const sort = a.options.sort === undefined ? undefined : Array.isArray(a.options.sort) ? a.options.sort : [a.options.sort];
  const window = { offset: (a.options.page - 1) * a.options.pageSize, limit: a.options.pageSize, count: true };
  const { list, total } = await queryWindow(actor.ctx, { schemaCode: a.schemaCode, filter: queryFilter(a.options.filter), sort }, window);
  return { rows: list, total: total ?? list.length };
}

export async function countRecords(actor: RecordsActor, args: unknown): Promise<number> {
  const a = checked(z.object({ schemaCode: SchemaCode, filter: ScriptFilter.nullish() }), args);
  const { total } = await queryWindow(actor.ctx, { schemaCode: a.schemaCode, filter: queryFilter(a.filter) }, { offset: 0, limit: 1, count: true });
  return total ?? 0;
}

const systemWrite = (actor: RecordsActor) => (actor.system ? ({ editRight: 'businessRule' } as const) : {});

export async function createRecord(actor: RecordsActor, args: unknown): Promise<{ objectId: string }> {
  const a = checked(z.object({ schemaCode: SchemaCode, values: Values, options: z.strictObject({ submit: z.boolean().optional(), children: Children.optional() }) }), args);
  const form = await formOf(actor, a.schemaCode);
  // A workflow form's submit starts its flow: the record service's caller does that, not a script.
  if (a.options.submit && form.isWorkflow) throw new ScriptCallError('流程表单的数据不能在脚本中提交，请保存为草稿（submit: false）');
  const saved = await saveRecordIn(actor.edb, actor.ctx, form, { submit: !!a.options.submit, values: a.values, children: a.options.children }, systemWrite(actor));
  actor.dropped.push(...saved.dropped);
  return { objectId: saved.result.objectId };
}

export async function updateRecord(actor: RecordsActor, args: unknown): Promise<{ objectId: string }> {
  const a = checked(z.object({ schemaCode: SchemaCode, objectId: ObjectId, values: Values }), args);
  const form = await formOf(actor, a.schemaCode);
  if (!(await readable(actor, form, a.objectId))) throw new ScriptCallError(`数据不存在或无权查看：${a.objectId}`);
  const saved = await saveRecordIn(actor.edb, actor.ctx, form, { objectId: a.objectId, submit: false, values: a.values }, systemWrite(actor));
  actor.dropped.push(...saved.dropped);
  return { objectId: a.objectId };
}

export async function removeRecord(actor: RecordsActor, args: unknown): Promise<{ objectId: string; removed: true }> {
  const a = checked(z.object({ schemaCode: SchemaCode, objectId: ObjectId }), args);
  const form = await formOf(actor, a.schemaCode);
  const row = UUID.test(a.objectId) ? await findRecord(actor.edb, form, a.objectId, { forUpdate: true }) : undefined;
  if (!row || !(actor.system || (await canReadRecord(actor.edb, form, row, actor.ctx.userId)))) throw new ScriptCallError(`数据不存在或无权查看：${a.objectId}`);
  if (!actor.system) await assertMayChange(actor.edb, form, row, actor.ctx.userId, 'delete');
  assertRemovable(row);
  const removal = await beforeRecordRemoved(actor.edb, actor.ctx, form, row);
  await deleteRecord(actor.edb, form, a.objectId);
  actor.dropped.push(...(await dropRecordFiles(actor.edb, form, a.objectId)));
  actor.dropped.push(...(await removal.afterRemoved()));
  return { objectId: a.objectId, removed: true };
}

import { matcherToFilter, type FilterNode, type ProductMatcher } from '@tritium/shared/query/index';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import * as records from '../business-data/record.service.ts';
import type { RecordFilesDeps } from '../business-data/record-files.ts';
import { queryWindow } from '../query/query.service.ts';
import { startFromForm } from '../workflow/workflow.service.ts';
import { bizObjectIn, bizObjectOut, localToIso, SYSTEM_FIELDS, type Issue } from './open-api-values.ts';
import { badRequest, flag, filterPath, object, objectId, recordPath, renamingIssues, rowNum, text, type Body } from './open-api-params.ts';

// The actions of POST /OpenApi/Invoke (h3yun-facts §1.2–§1.5; docs/decisions/0021). Reads go through the query
// engine, writes through record.service, as the identity the secret acts for, so every rule of the runtime holds.

/** At most this many records a call: LoadBizObjects' window and CreateBizObjects' array. */
export const OPEN_API_MAX_ROWS = 500;

export interface InvokeDeps {
  files: RecordFilesDeps;
  now: () => Date;
}

type Action = (ctx: NodeContext, body: Body, deps: InvokeDeps) => Promise<Record<string, unknown>>;

/** Values of a BizObject: converted from the product's formats; conversion problems are a 320003. */
function recordInput(form: RuntimeForm, bizObject: Record<string, unknown>, path: string) {
  const issues: Issue[] = [];
  const input = bizObjectIn(form, bizObject, path, issues);
  if (issues.length) throw badRequest(issues);
  return input;
}

async function loadBizObject(ctx: NodeContext, body: Body): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const id = objectId(body);
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const loaded = await records.loadData(ctx, { schemaCode, objectId: id });
  return { BizObject: bizObjectOut(form, { ...loaded.system, ...loaded.values }, loaded.children) };
}

/** A Matcher's Item values: moments in the product's `yyyy-MM-dd HH:mm:ss` are read as China time. */
function withIsoDates(m: ProductMatcher): ProductMatcher {
  if (m.Matchers) return { ...m, Matchers: m.Matchers.map(withIsoDates) };
  const iso = (v: unknown) => localToIso(v, true);
  return 'Value' in m ? { ...m, Value: Array.isArray(m.Value) ? m.Value.map(iso) : iso(m.Value) } : m;
}

function sortOf(list: unknown): { field: string; direction: 'asc' | 'desc' }[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list) || list.length > 3) throw badRequest([{ path: 'Filter.SortByCollection', message: '须为最多 3 项的数组' }]);
  return list.map((s, i) => {
    const item = (s ?? {}) as { ItemName?: unknown; Direction?: unknown };
    const d = item.Direction;
    const direction = d === undefined || d === 'Ascending' || d === 0 ? 'asc' : d === 'Descending' || d === 1 ? 'desc' : null;
    if (typeof item.ItemName !== 'string' || !direction) throw badRequest([{ path: `Filter.SortByCollection.${i}`, message: '须为 {ItemName, Direction: Ascending | Descending}' }]);
    return { field: item.ItemName, direction };
  });
}

async function loadBizObjects(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const filter = body.Filter === undefined || body.Filter === null || body.Filter === '' ? {} : object(body.Filter, 'Filter');
  const from = rowNum(filter.FromRowNum, 'Filter.FromRowNum', 0);
  const to = rowNum(filter.ToRowNum, 'Filter.ToRowNum', from + OPEN_API_MAX_ROWS);
  if (to < from) throw badRequest([{ path: 'Filter.ToRowNum', message: '不能小于 FromRowNum' }]);
  if (to - from > OPEN_API_MAX_ROWS) throw new AppError('OpenApiTooManyRows', { detail: { max: OPEN_API_MAX_ROWS, asked: to - from } });
  const count = flag(filter.RequireCount, 'Filter.RequireCount', false);
  const items = filter.ReturnItems ?? [];
  if (!Array.isArray(items) || items.some((i) => typeof i !== 'string')) throw badRequest([{ path: 'Filter.ReturnItems', message: '须为字段编码数组' }]);
  const sort = sortOf(filter.SortByCollection);
  let where: FilterNode | undefined;
  if (filter.Matcher !== undefined && filter.Matcher !== null) {
    const matcher = object(filter.Matcher, 'Filter.Matcher') as unknown as ProductMatcher;
    const read = matcherToFilter(withIsoDates(matcher));
    if (read.issues.length) throw badRequest(read.issues.map((i) => ({ ...i, path: `Filter.${i.path}` })));
    where = read.filter ?? undefined;
  }
  const window = { offset: from, limit: to - from, count };
  const result = await renamingIssues(() => queryWindow(ctx, { schemaCode, filter: where, sort }, window, { now: deps.now() }), filterPath);
  const known = new Set<string>([...SYSTEM_FIELDS, ...result.form.fields.map((f) => f.code)]);
  const unknown = (items as string[]).flatMap((code, i) => (known.has(code) ? [] : [{ path: `Filter.ReturnItems.${i}`, message: `表单没有字段 ${code}` }]));
  if (unknown.length) throw badRequest(unknown);
  const list = result.list.map((r) => {
    const full = bizObjectOut(result.form, r);
    return items.length ? Object.fromEntries((items as string[]).map((code) => [code, full[code]])) : full;
  });
  return { BizObjectArray: list, TotalCount: result.total ?? 0 };
}

async function createBizObject(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const bizObject = object(body.BizObject, 'BizObject');
  const submit = flag(body.IsSubmit, 'IsSubmit', false);
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const input = recordInput(form, bizObject, 'BizObject');
  // Submit on a workflow form starts its flow, as the runtime's Submit does (the workflow module's start).
  const saved = await renamingIssues(
    () => records.execute(ctx, { schemaCode, actionCode: submit ? 'Submit' : 'Save', ...input }, deps.files, startFromForm),
    recordPath('BizObject'),
  );
  const objectId = saved.objectId!;
  const instance = submit && form.isWorkflow ? (await records.loadData(ctx, { schemaCode, objectId })).system.WorkflowInstanceId : null;
  return { BizObjectId: objectId, WorkflowInstanceId: instance ?? '' };
}

/** All or nothing: every record is checked and written in one transaction; a problem names its index. */
async function createBizObjects(ctx: NodeContext, body: Body): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const array = body.BizObjectArray;
  if (!Array.isArray(array) || array.length === 0) throw badRequest([{ path: 'BizObjectArray', message: '须为非空数组' }]);
  if (array.length > OPEN_API_MAX_ROWS) throw new AppError('OpenApiTooManyRows', { detail: { max: OPEN_API_MAX_ROWS, asked: array.length } });
  const submit = flag(body.IsSubmit, 'IsSubmit', false);
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  if (submit && form.isWorkflow) throw new AppError('WorkflowSubmitNotSupported', { detail: { schemaCode: form.node.code } });
  const inputs = array.map((item, i) => recordInput(form, object(item, `BizObjectArray.${i}`), `BizObjectArray.${i}`));
  const ids = await ctx.db.transaction().execute(async (trx) => {
    const edb = engineDb(trx as unknown as Db, ctx.engineCode);
    const out: string[] = [];
    for (const [i, input] of inputs.entries()) {
      const saved = await renamingIssues(() => records.saveRecordIn(edb, ctx, form, { submit, ...input }), recordPath(`BizObjectArray.${i}`));
      out.push(saved.result.objectId);
    }
    return out;
  });
  return { BizObjectIdArray: ids };
}

async function updateBizObject(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const id = objectId(body);
  const bizObject = object(body.BizObject, 'BizObject');
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const input = recordInput(form, bizObject, 'BizObject');
  // Only the codes sent change; sub-tables sent replace their rows (docs/decisions/0007).
  await renamingIssues(() => records.execute(ctx, { schemaCode, actionCode: 'Save', objectId: id, ...input }, deps.files), recordPath('BizObject'));
  return {};
}

async function removeBizObject(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const id = objectId(body);
  await records.execute(ctx, { schemaCode, actionCode: 'Remove', objectId: id }, deps.files);
  return {};
}

const ACTIONS: Record<string, Action> = {
  LoadBizObject: loadBizObject,
  LoadBizObjects: loadBizObjects,
  CreateBizObject: createBizObject,
  CreateBizObjects: createBizObjects,
  UpdateBizObject: updateBizObject,
  RemoveBizObject: removeBizObject,
};

/** One Invoke call: the action its ActionName names (320002 for any other). */
export async function invoke(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const name = typeof body.ActionName === 'string' ? body.ActionName : '';
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action) throw new AppError('OpenApiUnknownAction', { detail: { actionName: name } });
  return action(ctx, body, deps);
}

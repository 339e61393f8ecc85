import { matcherToFilter, type QueryNode, type ProductMatcher } from '@tritium/shared/query/index';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { UserAuthType } from '@tritium/shared/constants/org';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import * as records from '../business-data/record.service.ts';
import { queryWindow } from '../query/query.service.ts';
import { bizObjectOut, SYSTEM_FIELDS } from './open-api-values.ts';
import { matcherValuesIn } from './open-api-matcher.ts';
import { OPEN_API_MAX_ROWS, badRequest, flag, filterPath, object, objectId, renamingIssues, rowNum, text, type Body, type InvokeDeps } from './open-api-params.ts';
import { createBizObject, createBizObjects, updateBizObject } from './open-api-create.ts';
import { customActions } from './custom-actions-port.ts';
import { createExternalLoginCode, EXTERNAL_CODE_DEFAULT_SECONDS, EXTERNAL_CODE_MAX_SECONDS } from '../integrations/external-login.ts';

// The actions of POST /OpenApi/Invoke (h3yun-facts §1.2–§1.5; docs/decisions/0021). Reads go through the query
// engine, writes through record.service, as the identity the secret acts for, so every rule of the runtime holds.

export { OPEN_API_MAX_ROWS };

export type { InvokeDeps };

type Action = (ctx: NodeContext, body: Body, deps: InvokeDeps) => Promise<Record<string, unknown>>;

async function loadBizObject(ctx: NodeContext, body: Body): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const id = objectId(body);
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const loaded = await records.loadData(ctx, { schemaCode, objectId: id });
  return { BizObject: bizObjectOut(form, { ...loaded.system, ...loaded.values }, loaded.children) };
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
  let where: QueryNode | undefined;
  if (filter.Matcher !== undefined && filter.Matcher !== null) {
    const matcher = object(filter.Matcher, 'Filter.Matcher') as unknown as ProductMatcher;
    const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
    const read = matcherToFilter(matcherValuesIn(form, matcher));
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

async function removeBizObject(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const id = objectId(body);
  await records.execute(ctx, { schemaCode, actionCode: 'Remove', objectId: id }, deps.files);
  return {};
}

/**
 * A one-use login code for one of the engine's users (docs/decisions/0073): only a secret acting for an engine
 * administrator may ask for it, since the code signs that user in.
 */
async function createExternalLoginCodeAction(ctx: NodeContext, body: Body): Promise<Record<string, unknown>> {
  if (ctx.authType !== UserAuthType.Administrator) throw new AppError('Forbidden');
  const userId = text(body, 'UserId');
  const seconds = rowNum(body.ExpiresInSeconds, 'ExpiresInSeconds', EXTERNAL_CODE_DEFAULT_SECONDS);
  if (seconds < 30 || seconds > EXTERNAL_CODE_MAX_SECONDS) throw badRequest([{ path: 'ExpiresInSeconds', message: `须在 30 到 ${EXTERNAL_CODE_MAX_SECONDS} 秒之间` }]);
  const issued = await createExternalLoginCode(ctx.db, ctx.engineCode, userId, seconds);
  return { Code: issued.code, ExpiresIn: issued.expiresIn, LoginPath: issued.loginPath };
}

const ACTIONS: Record<string, Action> = {
  LoadBizObject: loadBizObject,
  LoadBizObjects: loadBizObjects,
  CreateBizObject: createBizObject,
  CreateBizObjects: createBizObjects,
  UpdateBizObject: updateBizObject,
  RemoveBizObject: removeBizObject,
  CreateExternalLoginCode: createExternalLoginCodeAction,
};

/** One Invoke call: the action its ActionName names (320002 for any other). */
export async function invoke(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const name = typeof body.ActionName === 'string' ? body.ActionName : '';
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (action) return action(ctx, body, deps);
  // Not a reserved name: an app script's custom API, when one has it (docs/decisions/0118).
  const answered = name ? await customActions()?.(ctx, name, body, deps) : undefined;
  if (!answered) throw new AppError('OpenApiUnknownAction', { detail: { actionName: name } });
  return answered;
}

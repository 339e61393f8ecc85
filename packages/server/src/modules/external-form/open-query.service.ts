import { contracts } from '@tritium/shared';
import { controlDisplayText } from '@tritium/shared/controls/index';
import { OPEN_QUERY_PATH } from '@tritium/shared/constants/entry-routes';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { Db } from '../../db/types.ts';
import { AppError, parameterError } from '../../lib/app-error.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { unitNamesIn, visibleFields } from '../business-data/record.presenter.ts';
import { queryRecords } from '../query/query.service.ts';
import { designed } from './external-form.service.ts';
import { hashPassword, knownEngine, memberContext, passwordMatches, renewFormPageToken, saveFormPage } from './public-access.ts';

// Open-query pages (issue 19, form scene OpenQuery). The app's administrators pick query fields (matched exactly,
// every one required) and result fields; a visitor without an account fills the values and sees at most 20 records'
// result fields, read with the page owner's rights (their hidden fields never answered). Access: public; a password;
// or identity — a code sent to the visitor's mobile, which must also equal the record's mobile field, so a visitor
// finds only their own records. A code answers one query.

/** Query fields are matched exactly: short texts, numbers and single choices. */
const QUERYABLE: ReadonlySet<string> = new Set(['textBox', 'number', 'dropDown', 'radioList']);

type Row = { schema_code: string; token: string; enabled: boolean; access: contracts.OpenQueryAccess; password_hash: string | null; query_fields: string[]; result_fields: string[]; mobile_field: string | null; owner_id: string };

/** Sends and checks the codes of identity access (the sign-in codes' service, scene "query"). */
export interface QueryCodes {
  send(mobile: string, clientAddress?: string): Promise<{ expiresIn: number; resendAfter: number }>;
  consume(mobile: string, code: string): Promise<void>;
}

const rowOf = (edb: EngineExecutor, schemaCode: string) => edb.selectFrom('form_open_queries').selectAll().where('schema_code', '=', schemaCode).executeTakeFirst() as Promise<Row | undefined>;
const title = (f: { code: string; options: Record<string, unknown> }) => String(f.options.displayName ?? f.code);

async function present(edb: EngineExecutor, engineCode: string, row: Row | undefined): Promise<contracts.OpenQueryResult> {
  if (!row) return { query: null };
  const owner = await edb.selectFrom('org_users').select('name').where('id', '=', row.owner_id).executeTakeFirst();
  return {
    query: {
      schemaCode: row.schema_code,
      enabled: row.enabled,
      path: `${OPEN_QUERY_PATH}/${encodeURIComponent(engineCode)}/${row.token}`,
      access: row.access,
      hasPassword: row.password_hash !== null,
      queryFields: row.query_fields,
      resultFields: row.result_fields,
      mobileField: row.mobile_field,
      ownerId: row.owner_id,
      ownerName: owner?.name ?? '',
    },
  };
}

export async function getOpenQuery(ctx: NodeContext, schemaCode: string): Promise<contracts.OpenQueryResult> {
  const { edb, node } = await designed(ctx, schemaCode);
  return present(edb, ctx.engineCode, await rowOf(edb, node.code));
}

/** Every named field must be a field of the form, of a kind its role allows; refused with 777 naming it otherwise. */
function checkFields(form: RuntimeForm, body: contracts.OpenQuerySaveBody) {
  const byCode = new Map(form.fields.map((f) => [f.code, f]));
  const issues: { path: string; message: string }[] = [];
  body.queryFields.forEach((code, i) => {
    const f = byCode.get(code);
    if (!f || !QUERYABLE.has(f.type.key)) issues.push({ path: `queryFields.${i}`, message: '查询字段须是本表单的单行文本、数字或单选字段' });
  });
  body.resultFields.forEach((code, i) => {
    if (!byCode.has(code)) issues.push({ path: `resultFields.${i}`, message: '结果字段须是本表单的字段' });
  });
  if (body.access === 'identity' && (!body.mobileField || byCode.get(body.mobileField)?.type.key !== 'textBox')) issues.push({ path: 'mobileField', message: '身份验证查询须选择存放手机号的单行文本字段' });
  if (body.access === 'password' && body.password === null) issues.push({ path: 'password', message: '密码查询须设置密码' });
  if (issues.length) throw parameterError(issues);
}

export async function saveOpenQuery(ctx: NodeContext, body: contracts.OpenQuerySaveBody & { mobileField: string | null }): Promise<contracts.OpenQueryResult> {
  const { edb, node } = await designed(ctx, body.schemaCode);
  checkFields(await new FormCache(edb).require(node.code), body);
  const owner = await edb.selectFrom('org_users').select(['id', 'state']).where('id', '=', body.ownerId).executeTakeFirst();
  if (!owner || owner.state !== 'active') throw parameterError([{ path: 'ownerId', message: '该成员不存在或已停用' }]);
  const password = body.password === undefined ? undefined : body.password === null ? null : await hashPassword(body.password);
  const existing = await rowOf(edb, node.code);
  if (body.access === 'password' && !password && !existing?.password_hash) throw parameterError([{ path: 'password', message: '密码查询须设置密码' }]);
  const values = {
    enabled: body.enabled,
    access: body.access,
    query_fields: JSON.stringify(body.queryFields),
    result_fields: JSON.stringify(body.resultFields),
    mobile_field: body.access === 'identity' ? body.mobileField : null,
    owner_id: owner.id,
  };
  await saveFormPage(edb, 'form_open_queries', { schemaCode: node.code, createdBy: ctx.userId }, values, password);
  return present(edb, ctx.engineCode, await rowOf(edb, node.code));
}

/** A new address: the old one is refused at once. */
export async function resetOpenQuery(ctx: NodeContext, schemaCode: string): Promise<contracts.OpenQueryResult> {
  const { edb, node } = await designed(ctx, schemaCode);
  await renewFormPageToken(edb, 'form_open_queries', node.code);
  return present(edb, ctx.engineCode, await rowOf(edb, node.code));
}

async function openPage(db: Db, engineCode: string, token: string): Promise<{ edb: EngineExecutor; row: Row }> {
  const edb = await knownEngine(db, engineCode);
  const row = (await edb.selectFrom('form_open_queries').selectAll().where('token', '=', token).executeTakeFirst()) as Row | undefined;
  if (!row || !row.enabled) throw new AppError('PublicLinkNotFound');
  return { edb, row };
}

/** The owner's view of the form: the query and result fields they may see (hidden ones are dropped, never answered). */
async function ownerForm(db: Db, edb: EngineExecutor, engineCode: string, row: Row) {
  const owner = await memberContext(db, edb, engineCode, row.owner_id, 'PublicLinkNotFound');
  const form = await getRuntimeFormOrThrow(edb, owner, row.schema_code).catch(() => {
    throw new AppError('PublicLinkNotFound');
  });
  const visible = new Map(visibleFields(form).map((f) => [f.code, f]));
  const pick = (codes: string[]) => codes.flatMap((code) => (visible.has(code) ? [visible.get(code)!] : []));
  return { owner, form, queryFields: pick(row.query_fields), resultFields: pick(row.result_fields) };
}

export async function openQueryPage(db: Db, query: { engineCode: string; token: string }, password: string | undefined): Promise<contracts.OpenQueryPage> {
  const { edb, row } = await openPage(db, query.engineCode, query.token);
  const { form, queryFields } = await ownerForm(db, edb, query.engineCode, row);
  const displayName = form.definition.attributes.displayName;
  if (row.access === 'password' && !(row.password_hash && (await passwordMatches(row.password_hash, password)))) return { displayName, access: row.access, needsPassword: true, queryFields: [] };
  return { displayName, access: row.access, needsPassword: false, queryFields: queryFields.map((f) => ({ code: f.code, displayName: title(f) })) };
}

export async function sendQueryCode(db: Db, codes: QueryCodes, body: { engineCode: string; token: string; mobile: string }, clientAddress?: string) {
  const { row } = await openPage(db, body.engineCode, body.token);
  if (row.access !== 'identity') throw new AppError('PublicLinkNotFound');
  return codes.send(body.mobile, clientAddress);
}

export async function searchOpenQuery(db: Db, codes: QueryCodes, body: contracts.OpenQuerySearchBody): Promise<contracts.OpenQuerySearchResult> {
  const { edb, row } = await openPage(db, body.engineCode, body.token);
  if (row.access === 'password' && !(row.password_hash && (await passwordMatches(row.password_hash, body.password)))) throw new AppError('PublicLinkPassword');
  const { owner, queryFields, resultFields } = await ownerForm(db, edb, body.engineCode, row);
  if (!queryFields.length || queryFields.some((f) => !body.values[f.code])) throw new AppError('OpenQueryIncomplete');
  const conditions = queryFields.map((f) => {
    const text = body.values[f.code]!;
    const value = f.type.key === 'number' ? Number(text) : text;
    if (typeof value === 'number' && !Number.isFinite(value)) throw parameterError([{ path: `values.${f.code}`, message: '请输入数字' }]);
    return { field: f.code, operator: 'Equal' as const, value };
  });
  if (row.access === 'identity') {
    if (!body.mobile || !body.code) throw new AppError('OpenQueryIncomplete');
    await codes.consume(body.mobile, body.code);
    conditions.push({ field: row.mobile_field!, operator: 'Equal', value: body.mobile });
  }
  const found = await queryRecords(owner, {
    schemaCode: row.schema_code,
    // The mobile field may be hidden from the visitor's view; it is the page's own condition, not the visitor's.
    fixedFilter: { type: 'And', children: conditions },
    status: [BizObjectStatus.Effective, BizObjectStatus.Running],
    pageIndex: 0,
    pageSize: contracts.OPEN_QUERY_RESULTS_MAX,
  });
  const unitName = await unitNamesIn(edb, found.list);
  return {
    columns: resultFields.map((f) => ({ code: f.code, displayName: title(f) })),
    rows: found.list.map((r) => resultFields.map((f) => controlDisplayText({ type: f.type.key, options: f.options }, r[f.code] ?? null, { unitName }))),
  };
}

import { sql } from 'kysely';
import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { VIEW_LIMITS } from '@tritium/shared/contracts/view/index';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { compileFilter, type CompileContext } from '../query/filter-compiler.ts';
import { mainColumn } from '../query/query-fields.ts';
import { isSortable } from '@tritium/shared/query/index';
import { viewOf } from './view-settings.service.ts';

// Personal views (calls.md §7: /v1/preference/view — GET list; POST addView, updateView, deleteView, view/sort;
// fields Id, Title, ScopeType, SettingType, Config, Visible, Fields, ViewPageId, schemaCode; docs/decisions/0017).
// Each user sees and changes only their own; a view of a form one can no longer open is out of reach (404).

type Row = { id: string; title: string; scope_type: number; setting_type: number; config: unknown; visible: boolean; fields: string[]; view_page_id: string; schema_code: string };
const present = (r: Row): contracts.PersonalView => ({
  Id: r.id, Title: r.title, ScopeType: r.scope_type, SettingType: r.setting_type, Config: r.config as contracts.PersonalViewConfig,
  Visible: r.visible, Fields: r.fields, ViewPageId: r.view_page_id, schemaCode: r.schema_code,
});
const COLUMNS = ['id', 'title', 'scope_type', 'setting_type', 'config', 'visible', 'fields', 'view_page_id', 'schema_code'] as const;

/** A personal view's Config and Fields must name fields of the form (and sort only sortable ones). */
function checkConfig(cc: CompileContext, config: contracts.PersonalViewConfig | undefined, fields: string[] | undefined): void {
  const known = (code: string) => mainColumn(cc.form, code) !== undefined;
  if (config?.filter) compileFilter(cc, config.filter, 'Config.filter');
  config?.sort?.forEach((s, i) => {
    const c = mainColumn(cc.form, s.field);
    if (!c || !isSortable(c.dataType)) cc.issues.push({ path: `Config.sort.${i}.field`, message: `不能按字段 ${s.field} 排序` });
  });
  config?.columns?.forEach((c, i) => !known(c.field) && cc.issues.push({ path: `Config.columns.${i}.field`, message: `字段 ${c.field} 不存在` }));
  fields?.forEach((f, i) => !known(f) && cc.issues.push({ path: `Fields.${i}`, message: `字段 ${f} 不存在` }));
  if (cc.issues.length) throw parameterError(cc.issues);
}

const ccOf = (edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm): CompileContext => ({ edb, form, userId: ctx.userId, now: new Date(), issues: [] });

export async function listPersonalViews(ctx: NodeContext, schemaCode: string): Promise<{ list: contracts.PersonalView[] }> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, schemaCode);
  const rows = await edb.selectFrom('personal_views').select(COLUMNS).where('user_id', '=', ctx.userId).where('schema_code', '=', form.node.code).orderBy('sort_key').orderBy('created_time').execute();
  return { list: rows.map(present) };
}

/** A personal view of the caller, with its form as the caller opens it; 290003 otherwise. */
export async function personalViewOf(ctx: NodeContext, id: string, schemaCode?: string): Promise<{ row: Row; form: RuntimeForm }> {
  const edb = engineOf(ctx);
  const row = await edb.selectFrom('personal_views').select(COLUMNS).where('id', '=', id).where('user_id', '=', ctx.userId).executeTakeFirst();
  if (!row || (schemaCode !== undefined && row.schema_code !== schemaCode)) throw new AppError('PersonalViewNotFound', { detail: { Id: id } });
  return { row, form: await getRuntimeFormOrThrow(edb, ctx, row.schema_code) };
}

export async function addPersonalView(ctx: NodeContext, body: z.infer<typeof contracts.AddPersonalViewBody>): Promise<contracts.PersonalView> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  await viewOf(edb, form, body.ViewPageId);
  checkConfig(ccOf(edb, ctx, form), body.Config, body.Fields);
  return ctx.db.transaction().execute(async (trx) => {
    const tx = engineOf({ db: trx as unknown as typeof ctx.db, engineCode: ctx.engineCode });
    await sql`select pg_advisory_xact_lock(hashtext(${`tritium:pv:${ctx.engineCode}:${ctx.userId}`}))`.execute(tx);
    const { n, top } = await tx
      .selectFrom('personal_views')
      .select([sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(max(sort_key), -1)::int`.as('top')])
      .where('user_id', '=', ctx.userId)
      .where('schema_code', '=', form.node.code)
      .executeTakeFirstOrThrow();
    if (n >= VIEW_LIMITS.personalViews) throw new AppError('PersonalViewLimit', { detail: { max: VIEW_LIMITS.personalViews } });
    const row = {
      id: newId(), user_id: ctx.userId, schema_code: form.node.code, view_page_id: body.ViewPageId, title: body.Title, scope_type: body.ScopeType,
      setting_type: body.SettingType, config: JSON.stringify(body.Config), visible: body.Visible, fields: JSON.stringify(body.Fields), sort_key: Number(top) + 1,
    };
    await tx.insertInto('personal_views').values(row).execute();
    return present({ ...row, config: body.Config, fields: body.Fields });
  });
}

export async function updatePersonalView(ctx: NodeContext, body: z.infer<typeof contracts.UpdatePersonalViewBody>): Promise<contracts.PersonalView> {
  const edb = engineOf(ctx);
  const { row, form } = await personalViewOf(ctx, body.Id);
  checkConfig(ccOf(edb, ctx, form), body.Config, body.Fields);
  const set = {
    ...(body.Title === undefined ? {} : { title: body.Title }),
    ...(body.ScopeType === undefined ? {} : { scope_type: body.ScopeType }),
    ...(body.Config === undefined ? {} : { config: JSON.stringify(body.Config) }),
    ...(body.Visible === undefined ? {} : { visible: body.Visible }),
    ...(body.Fields === undefined ? {} : { fields: JSON.stringify(body.Fields) }),
    modified_time: new Date(),
  };
  await edb.updateTable('personal_views').set(set).where('id', '=', row.id).where('user_id', '=', ctx.userId).execute();
  return present({ ...row, ...(body.Title === undefined ? {} : { title: body.Title }), ...(body.ScopeType === undefined ? {} : { scope_type: body.ScopeType }),
    ...(body.Config === undefined ? {} : { config: body.Config }), ...(body.Visible === undefined ? {} : { visible: body.Visible }), ...(body.Fields === undefined ? {} : { fields: body.Fields }) });
}

export async function deletePersonalView(ctx: NodeContext, id: string): Promise<{ Id: string }> {
  const { row } = await personalViewOf(ctx, id);
  await engineOf(ctx).deleteFrom('personal_views').where('id', '=', row.id).where('user_id', '=', ctx.userId).execute();
  return { Id: id };
}

/** Puts the caller's personal views of a form in the given order (views not named keep their place after them). */
export async function sortPersonalViews(ctx: NodeContext, body: { schemaCode: string; ids: string[] }): Promise<{ list: contracts.PersonalView[] }> {
  const current = await listPersonalViews(ctx, body.schemaCode);
  const mine = new Set(current.list.map((v) => v.Id));
  const issues = body.ids.flatMap((id, i) => (mine.has(id) ? [] : [{ path: `ids.${i}`, message: '不是您在该表单的个人视图' }]));
  if (new Set(body.ids).size !== body.ids.length) issues.push({ path: 'ids', message: '视图重复' });
  if (issues.length) throw parameterError(issues);
  const order = [...body.ids, ...current.list.map((v) => v.Id).filter((id) => !body.ids.includes(id))];
  await ctx.db.transaction().execute(async (trx) => {
    const tx = engineOf({ db: trx as unknown as typeof ctx.db, engineCode: ctx.engineCode });
    for (const [i, id] of order.entries()) await tx.updateTable('personal_views').set({ sort_key: i }).where('id', '=', id).where('user_id', '=', ctx.userId).execute();
  });
  return listPersonalViews(ctx, body.schemaCode);
}

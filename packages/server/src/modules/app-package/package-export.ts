import { sql } from 'kysely';
import { contracts } from '@tritium/shared';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor, NodeRow } from '../function-node/function-node.repo.ts';
import { isFormCodeKey } from '../function-node/code-remap.ts';
import { FORM_NODE_TYPES } from '../form-design/form-access.ts';
import { currentSchemaVersion, sha256 as sha256Of, type PackageContent } from './package-format.ts';
import { readSamples, type SampleFiles } from './sample-export.ts';

// What an app is, read from its engine (docs/decisions/0130): the published definitions of every kind, keyed by the
// app's node codes. `collectApp` gathers them; `appProblems` says what keeps the app from travelling.

export const systemViewer = (userId = 'system') => ({ userId, authType: UserAuthType.Administrator, unitIds: [] as string[] });

/** The app's nodes, published only (a copy or install in progress is not part of it). */
async function appNodes(edb: EngineExecutor, appCode: string): Promise<{ app: NodeRow; nodes: NodeRow[] }> {
  const rows = (await edb
    .selectFrom('function_nodes')
    .select(['code', 'object_id', 'parent_code', 'app_code', 'display_name', 'icon', 'icon_color', 'node_type', 'summary', 'app_state', 'source', 'state', 'sort_key', 'url'])
    .where('app_code', '=', appCode)
    .where('copy_job_id', 'is', null)
    .orderBy('parent_code')
    .orderBy('sort_key')
    .execute()) as NodeRow[];
  const app = rows.find((n) => n.code === appCode && n.node_type === FunctionNodeType.AppPackage);
  if (!app) throw new AppError('FunctionNodeNotFound', { detail: { code: appCode } });
  return { app, nodes: rows.filter((n) => n !== app) };
}

/** Every string a definition gives under a form-code key. */
export function formCodesIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) formCodesIn(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (isFormCodeKey(k) && typeof v === 'string' && v) into.add(v);
      else formCodesIn(v, into);
    }
  }
  return into;
}

const CONNECTOR_CALL = /\b(connectors?|connections?)\s*[.(]/i;

/** What keeps the app from being packaged, with where it is (an empty list: nothing). */
export async function appProblems(db: Db, engineCode: string, appCode: string): Promise<contracts.PackageProblem[]> {
  const edb = engineDb(db, engineCode);
  const { nodes } = await appNodes(edb, appCode);
  const problems: contracts.PackageProblem[] = [];
  const inApp = new Set(nodes.map((n) => n.code));
  const forms = nodes.filter((n) => FORM_NODE_TYPES.includes(n.node_type));
  const formCodes = forms.map((f) => f.code);
  const schemas = formCodes.length ? await edb.selectFrom('form_schemas').select(['schema_code', 'published']).where('schema_code', 'in', formCodes).execute() : [];
  const published = new Map(schemas.map((s) => [s.schema_code, s.published]));
  for (const f of forms) if (!published.get(f.code)) problems.push({ path: `forms.${f.code}`, message: `表单「${f.display_name}」还没有发布` });
  const refs = (path: string, value: unknown) => {
    for (const code of formCodesIn(value)) if (!inApp.has(code)) problems.push({ path, message: `引用了应用之外的表单 ${code}` });
  };
  for (const [code, def] of published) refs(`forms.${code}.definition`, def);
  if (formCodes.length) {
    for (const r of await edb.selectFrom('form_business_rules').select(['schema_code', 'published']).where('schema_code', 'in', formCodes).execute()) refs(`forms.${r.schema_code}.rules`, r.published);
    for (const a of await edb.selectFrom('automations').select(['schema_code', 'name', 'trigger_type', 'definition']).where('schema_code', 'in', formCodes).execute()) {
      refs(`forms.${a.schema_code}.automations.${a.name}`, a.definition);
      const steps = ((a.definition as { steps?: { type?: string }[] }).steps ?? []).map((s) => s.type);
      if (a.trigger_type === 'connector' || steps.includes('connector')) problems.push({ path: `forms.${a.schema_code}.automations.${a.name}`, message: '自动化使用了本组织的连接器' });
    }
    for (const w of await latestTemplates(edb, formCodes)) refs(`forms.${w.schema_code}.workflow`, w.definition);
    for (const v of await edb.selectFrom('list_views').select(['schema_code', 'code', 'setting']).where('schema_code', 'in', formCodes).execute()) refs(`forms.${v.schema_code}.views.${v.code}`, v.setting);
  }
  const codes = await edb.selectFrom('custom_codes').select(['schema_code', 'part', 'source']).where('app_code', '=', appCode).execute();
  for (const c of codes) if (CONNECTOR_CALL.test(c.source)) problems.push({ path: c.schema_code ? `forms.${c.schema_code}.scripts.${c.part}` : `appApis.${c.part}`, message: '脚本调用了本组织的连接器或连接' });
  const boardCodes = nodes.filter((n) => n.node_type === FunctionNodeType.DashBoardModule || n.node_type === FunctionNodeType.ReportModule).map((n) => n.code);
  if (boardCodes.length) for (const b of await edb.selectFrom('boards').select(['node_code', 'definition']).where('node_code', 'in', boardCodes).execute()) refs(`boards.${b.node_code}`, b.definition);
  for (const n of nodes) if (n.node_type === FunctionNodeType.DataSourceModule) problems.push({ path: `nodes.${n.code}`, message: `「${n.display_name}」是本组织的数据源，不能打包` });
  return problems;
}

async function latestTemplates(edb: EngineExecutor, codes: string[]) {
  if (!codes.length) return [];
  return edb
    .selectFrom('wf_templates as t')
    .select(['t.schema_code', 't.definition'])
    .where('t.schema_code', 'in', codes)
    .where('t.version', '=', (eb) => eb.selectFrom('wf_templates as u').select(sql<number>`max(u.version)`.as('v')).whereRef('u.schema_code', '=', 't.schema_code'))
    .execute();
}

/** Role and department names by id, for the permission groups' members. */
async function unitNames(edb: EngineExecutor): Promise<Map<string, string>> {
  const units = await edb.selectFrom('org_units').select(['id', 'name']).execute();
  return new Map(units.map((u) => [String(u.id), u.name]));
}

/** The whole app as a package (the app's problems were checked by the caller). */
export async function collectApp(db: Db, engineCode: string, appCode: string, opts: { sampleData: boolean; files?: SampleFiles }): Promise<PackageContent> {
  const edb = engineDb(db, engineCode);
  const { app, nodes } = await appNodes(edb, appCode);
  const files = new Map<string, Buffer>();
  const fileList: contracts.AppPackage['files'] = [];
  const addFile = (sha: string, data: Buffer, name: string, contentType: string) => {
    if (!files.has(sha)) {
      files.set(sha, data);
      fileList.push({ sha256: sha, name, size: data.length, contentType });
    }
  };
  const formNodes = nodes.filter((n) => FORM_NODE_TYPES.includes(n.node_type));
  const codes = formNodes.map((n) => n.code);
  const units = await unitNames(edb);
  const byForm = async <T extends { schema_code: string | null }>(rows: Promise<T[]>) => {
    const map = new Map<string, T[]>();
    for (const r of await rows) map.set(r.schema_code!, [...(map.get(r.schema_code!) ?? []), r]);
    return map;
  };
  const none = codes.length === 0;
  const q = <T>(run: () => Promise<T[]>) => (none ? Promise.resolve([] as T[]) : run());
  const schemas = new Map((await q(() => edb.selectFrom('form_schemas').select(['schema_code', 'published']).where('schema_code', 'in', codes).execute())).map((r) => [r.schema_code, r.published]));
  const rules = new Map((await q(() => edb.selectFrom('form_business_rules').select(['schema_code', 'published']).where('schema_code', 'in', codes).execute())).map((r) => [r.schema_code, r.published]));
  const indexes = await byForm(q(() => edb.selectFrom('form_custom_indexes').select(['schema_code', 'fields']).where('schema_code', 'in', codes).orderBy('created_time').execute()));
  const views = await byForm(q(() => edb.selectFrom('list_views').select(['schema_code', 'setting']).where('schema_code', 'in', codes).orderBy('sort_key').execute()));
  const flows = new Map((await latestTemplates(edb, codes)).map((w) => [w.schema_code, w.definition]));
  const automations = await byForm(q(() => edb.selectFrom('automations').select(['schema_code', 'name', 'enabled', 'run_as', 'definition']).where('schema_code', 'in', codes).orderBy('created_time').execute()));
  const prints = await byForm(q(() => edb.selectFrom('print_templates').select(['schema_code', 'name', 'is_default', 'layout']).where('schema_code', 'in', codes).orderBy('created_time').execute()));
  const excels = await byForm(q(() => edb.selectFrom('print_excel_templates').select(['schema_code', 'name', 'workbook']).where('schema_code', 'in', codes).orderBy('created_time').execute()));
  const groups = await byForm(q(() => edb.selectFrom('form_permission_groups').selectAll().where('schema_code', 'in', codes).orderBy('sort_key').execute()));
  const scripts = await byForm(edb.selectFrom('custom_codes').select(['schema_code', 'part', 'language', 'source']).where('app_code', '=', appCode).where('schema_code', 'is not', null).execute());
  const appApis = await edb.selectFrom('custom_codes').select(['part', 'language', 'source']).where('app_code', '=', appCode).where('schema_code', 'is', null).execute();
  const forms: contracts.AppPackageInput['forms'] = [];
  for (const node of formNodes) {
    const definition = schemas.get(node.code);
    if (!definition) throw new AppError('AppPackageBlocked', { detail: { count: 1, problems: [{ path: `forms.${node.code}`, message: '表单还没有发布' }] } });
    forms.push({
      code: node.code,
      definition: definition as contracts.FormDefinition,
      rules: (rules.get(node.code) ?? []) as never,
      customIndexes: (indexes.get(node.code) ?? []).map((i) => i.fields as string[]),
      views: (views.get(node.code) ?? []).map((v) => v.setting) as never,
      workflow: (flows.get(node.code) ?? null) as never,
      automations: (automations.get(node.code) ?? []).map((a) => ({ name: a.name, enabled: a.enabled, runAs: a.run_as as 'owner', definition: a.definition as Record<string, unknown> })),
      printTemplates: (prints.get(node.code) ?? []).map((p) => ({ name: p.name, isDefault: p.is_default, layout: p.layout as never })),
      excelTemplates: (excels.get(node.code) ?? []).map((x) => {
        const data = Buffer.from(x.workbook);
        const sha = sha256Of(data);
        addFile(sha, data, `${x.name}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        return { name: x.name, sha256: sha };
      }),
      permissionGroups: (groups.get(node.code) ?? []).map((g) => {
        const members = g.members as { roles?: string[]; departments?: string[] };
        return {
          name: g.name,
          roles: (members.roles ?? []).map((id) => units.get(id)).filter((n): n is string => !!n),
          departments: (members.departments ?? []).map((id) => units.get(id)).filter((n): n is string => !!n),
          actions: g.actions as never,
          viewScope: g.view_scope as never,
          editScope: g.edit_scope as never,
          fieldRights: g.field_rights as never,
        };
      }),
      scripts: (scripts.get(node.code) ?? []).map((s) => ({ part: s.part as 'form-server', language: s.language as 'ts', source: s.source })),
      samples: [],
    });
  }
  if (opts.sampleData) await readSamples(edb, formNodes, forms, addFile, opts.files);
  const boardCodes = nodes.filter((n) => n.node_type === FunctionNodeType.DashBoardModule || n.node_type === FunctionNodeType.ReportModule).map((n) => n.code);
  const boards = boardCodes.length ? await edb.selectFrom('boards').select(['node_code', 'definition']).where('node_code', 'in', boardCodes).execute() : [];
  const inApp = new Set([appCode, ...nodes.map((n) => n.code)]);
  const named = [...schemas.values(), ...rules.values(), ...flows.values(), ...boards.map((b) => b.definition), ...[...automations.values()].flat().map((a) => a.definition), ...[...views.values()].flat().map((v) => v.setting)];
  const external = [...formCodesIn(named)].filter((c) => !inApp.has(c));
  const externalNames = external.length ? await edb.selectFrom('function_nodes').select(['code', 'display_name']).where('code', 'in', external).execute() : [];
  const input: contracts.AppPackageInput = {
    formatVersion: contracts.APP_PACKAGE_FORMAT_VERSION,
    schemaVersion: currentSchemaVersion(),
    app: { code: app.code, name: app.display_name, icon: app.icon, iconColor: app.icon_color, summary: app.summary },
    nodes: nodes.map((n) => ({ code: n.code, parentCode: n.parent_code, name: n.display_name, icon: n.icon, iconColor: n.icon_color, nodeType: n.node_type, summary: n.summary, sortKey: n.sort_key, url: n.url })),
    forms,
    boards: boards.map((b) => ({ code: b.node_code, definition: b.definition as never })),
    appApis: appApis.map((s) => ({ part: s.part as 'app-api', language: s.language as 'ts', source: s.source })),
    externalForms: external.map((code) => ({ code, name: externalNames.find((n) => n.code === code)?.display_name ?? code })),
    files: fileList,
    units: await unitsOf(edb, [...flows.values()]),
  };
  const parsed = contracts.AppPackage.safeParse(input);
  if (!parsed.success) {
    throw new AppError('AppPackageInvalid', { detail: { issues: parsed.error.issues.slice(0, 50).map((i) => ({ path: i.path.join('.'), message: i.message })) } });
  }
  return { pkg: parsed.data, files };
}

const UNIT_SOURCES: Record<string, 'role' | 'department' | 'user'> = { roles: 'role', departments: 'department', users: 'user' };

/** The ids a flow's participant sources name (roles, departments, people), by kind. */
export function unitIdsIn(value: unknown, into = new Map<string, 'role' | 'department' | 'user'>()): Map<string, 'role' | 'department' | 'user'> {
  if (Array.isArray(value)) for (const v of value) unitIdsIn(v, into);
  else if (value && typeof value === 'object') {
    const o = value as { type?: unknown; ids?: unknown };
    const kind = typeof o.type === 'string' ? UNIT_SOURCES[o.type] : undefined;
    if (kind && Array.isArray(o.ids)) for (const id of o.ids) into.set(String(id), kind);
    else for (const v of Object.values(value)) unitIdsIn(v, into);
  }
  return into;
}

/** The package's units: each id the flows name, with its name in this engine. */
export async function unitsOf(edb: EngineExecutor, flows: unknown[]): Promise<contracts.AppPackageInput['units']> {
  const ids = unitIdsIn(flows);
  if (!ids.size) return [];
  const list = [...ids.keys()];
  const units = await edb.selectFrom('org_units').select(['id', 'name']).where('id', 'in', list).execute();
  const users = await edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', list).execute();
  const names = new Map([...units, ...users].map((u) => [String(u.id), u.name]));
  return list.filter((id) => names.has(id)).map((id) => ({ id, kind: ids.get(id)!, name: names.get(id)! }));
}

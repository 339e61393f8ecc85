import { sql } from 'kysely';
import { createTestApp, registerPerson, type TestApp } from './helpers.ts';
import { FunctionNodeType, addMember, createApp, createNode, grant, nodeClient, type OrgClient, type Person } from './node-helpers.ts';
import { companyIdOf } from './org-helpers.ts';

// Fixtures for the form-design tests (docs/decisions/0006).

type ControlInput = { type: string; code: string; options?: Record<string, unknown>; controls?: ControlInput[]; panes?: { title: string; controls: ControlInput[] }[] };

/** A form definition as the designer saves it. */
export function definition(controls: ControlInput[], attributes: Record<string, unknown> = {}) {
  return { attributes: { displayName: '客户信息', ...attributes }, controls };
}

export async function createForm(client: OrgClient, appCode: string, overrides: Record<string, unknown> = {}, nodeType: number = FunctionNodeType.FormModule) {
  return createNode(client, appCode, nodeType, overrides);
}

/** Loads the designer, saves `def` over the loaded version; answers the saved version. */
export async function saveDraft(client: OrgClient, schemaCode: string, def: unknown): Promise<number> {
  const loaded = await client.post('/v1/formdesign/load', { schemaCode });
  const saved = await client.post('/v1/formdesign/save', { schemaCode, baseVersion: loaded.draft.version, definition: def });
  return saved.version;
}

/** Saves and publishes; fails the test on an error answer. */
export async function publish(client: OrgClient, schemaCode: string, def: unknown, confirm: string[] = []) {
  const version = await saveDraft(client, schemaCode, def);
  return client.post('/v1/formdesign/publish', { schemaCode, version, confirm });
}

export interface ColumnInfo {
  column_name: string;
  data_type: string;
  udt_name: string;
  character_maximum_length: number | null;
  is_nullable: string;
}

/** Columns of a table in an engine schema, in order; not the generated lowered twins (see twinsOf). */
export async function columnsOf(t: TestApp, engineCode: string, table: string): Promise<ColumnInfo[]> {
  const r = await sql<ColumnInfo>`
    select column_name, data_type, udt_name, character_maximum_length, is_nullable from information_schema.columns
    where table_schema = ${`e_${engineCode}`} and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`.execute(t.database.db);
  return r.rows;
}

/** A main table's lowered twins (decision 0103): twin name → its expression, as PostgreSQL shows it. */
export async function twinsOf(t: TestApp, engineCode: string, table: string): Promise<Record<string, string>> {
  const r = await sql<{ name: string; expression: string }>`
    select column_name as name, generation_expression as expression from information_schema.columns
    where table_schema = ${`e_${engineCode}`} and table_name = ${table} and is_generated = 'ALWAYS' order by ordinal_position`.execute(t.database.db);
  return Object.fromEntries(r.rows.map((row) => [row.name, row.expression]));
}

/** Column name → a short type: varchar(200), text, numeric, _text (text[]), jsonb, uuid, … */
export async function columnTypes(t: TestApp, engineCode: string, table: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const c of await columnsOf(t, engineCode, table)) {
    out[c.column_name] = c.udt_name === 'varchar' ? `varchar(${c.character_maximum_length})` : c.udt_name;
  }
  return out;
}

/** Tables of an engine schema whose names start with `prefix`. */
export async function tablesLike(t: TestApp, engineCode: string, prefix: string): Promise<string[]> {
  const r = await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = ${`e_${engineCode}`} and table_name like ${`${prefix}%`} order by 1`.execute(t.database.db);
  return r.rows.map((row) => row.t);
}

/** Indexes of a table: name → definition (pg_indexes). */
export async function indexesOf(t: TestApp, engineCode: string, table: string): Promise<Record<string, string>> {
  const r = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where schemaname = ${`e_${engineCode}`} and tablename = ${table}`.execute(t.database.db);
  return Object.fromEntries(r.rows.map((row) => [row.indexname, row.indexdef]));
}

/** Runs SQL in the engine schema (test data written directly, as the runtime will later). */
export async function engineSql<T = Record<string, unknown>>(t: TestApp, query: ReturnType<typeof sql>): Promise<T[]> {
  const r = await query.execute(t.database.db);
  return r.rows as T[];
}

export const tableRef = (engineCode: string, table: string) => sql.id(`e_${engineCode}`, table);

/** A fresh test app with a registered administrator who has created one app: the opening of most form tests. */
export async function adminWithApp(options: Parameters<typeof createTestApp>[0] = {}): Promise<{ t: TestApp; admin: Person; a: OrgClient; appCode: string }> {
  const t = await createTestApp(options);
  const admin = await registerPerson(t.app);
  const a = nodeClient(t.app, admin);
  return { t, admin, a, appCode: (await createApp(a)).code };
}

/**
 * A fresh app with one published form (`def`) and a member of a new department 销售部 who may open the app: the opening
 * of the report tests. A is the administrator's user id, B the member's; C the company's department, D1 the member's.
 */
export async function formWithDepartmentMember(options: Parameters<typeof createTestApp>[0], def: unknown) {
  const { t, admin, a, appCode } = await adminWithApp(options);
  const code = (await createForm(a, appCode)).code as string;
  await publish(a, code, def);
  const A: string = (await a.post('/v1/form/loaddata', { schemaCode: code })).system.CreatedBy;
  const C = await companyIdOf(t, admin.engineCode);
  const D1: string = (await a.post('/v1/org/department/create', { parentId: C, name: '销售部' })).id;
  const member = await addMember(t, admin, { name: '销售', departmentIds: [D1] });
  await grant(a, appCode, member.userId, 'access');
  return { t, admin, a, appCode, code, table: `i_${code.toLowerCase()}`, A, B: member.userId, C, D1, member, m: nodeClient(t.app, member) };
}

/**
 * One control of each data type a round trip must carry (text, numbers, dates, choices, places, people, departments,
 * files, associations to `refCode`, batch scan), in this order; tests add the kinds their subject adds (photos,
 * dynamic, face, plugin, formulas, sub-tables).
 */
export const everyDataControl = (refCode: string) => [
  { type: 'textBox', code: 'Title' },
  { type: 'textArea', code: 'Notes' },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'dateTime', code: 'When' },
  { type: 'radioList', code: 'Level', options: { defaultItems: ['高', '中', '低'] } },
  { type: 'checkboxList', code: 'Tags', options: { defaultItems: ['红', '绿', '蓝'] } },
  { type: 'dropDown', code: 'City', options: { defaultItems: ['北京', '上海'] } },
  { type: 'checkbox', code: 'Done' },
  { type: 'areaSelect', code: 'Addr' },
  { type: 'map', code: 'Loc' },
  { type: 'user', code: 'Person' },
  { type: 'multiUser', code: 'Team' },
  { type: 'department', code: 'Dept' },
  { type: 'multiDepartment', code: 'Depts' },
  { type: 'attachment', code: 'Files' },
  { type: 'associationQuery', code: 'Ref', options: { schemaCode: refCode } },
  { type: 'associationQueryMulti', code: 'Refs', options: { schemaCode: refCode } },
  { type: 'batchScan', code: 'Codes' },
];

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UserAuthType } from '@tritium/shared/constants/org';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, companyIdOf, engineDb, orgClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import { createLocalFileStore } from '../files/file-store.ts';
import type { TemplateBuildContext } from './build-kit.ts';

// What the built-in templates' tests share (docs/decisions/0132): a fresh engine and the builder's context in it,
// people in a department with a manager, and a dashboard's widgets read through the report API.

export interface BuildEngine {
  t: TestApp;
  admin: Person;
  a: OrgClient;
  ctx: TemplateBuildContext;
  companyId: string;
}

/**
 * A fresh test app whose registered administrator builds the templates; its data folder is a temporary one, and the
 * builder's file store is the app's own (the one its routes read files and packages from).
 */
export async function openBuildEngine(): Promise<BuildEngine> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tritium-builtin-'));
  const t = await createTestApp({ config: { dataDir } });
  const admin = await registerPerson(t.app, { userName: '王总', engineName: '模板测试有限公司' });
  const edb = engineDb(t.database.db, admin.engineCode);
  const user = await edb.selectFrom('org_users').select(['id', 'auth_type']).where('auth_type', '=', UserAuthType.Administrator).executeTakeFirstOrThrow();
  const store = createLocalFileStore(path.join(dataDir, 'files'));
  const ctx: TemplateBuildContext = { db: t.database.db, engineCode: admin.engineCode, userId: user.id, authType: user.auth_type, files: { store }, today: new Date() };
  return { t, admin, a: orgClient(t.app, admin), ctx, companyId: await companyIdOf(t, admin.engineCode) };
}

/** A department with a manager and an employee, both allowed to create records in the apps. */
export async function departmentWithManager(e: BuildEngine, appCodes: string[], name: string) {
  const dept = await e.a.post('/v1/org/department/create', { parentId: e.companyId, name });
  const manager = await addInvitedMember(e.t, e.admin, { name: `${name}主管`, departmentIds: [dept.id] });
  const employee = await addInvitedMember(e.t, e.admin, { name: `${name}员工`, departmentIds: [dept.id] });
  await e.a.post('/v1/org/department/update', { id: dept.id, managerId: manager.userId });
  for (const appCode of appCodes) await grantApp(e, appCode, [manager.userId, employee.userId]);
  return { deptId: dept.id as string, manager, employee, m: orgClient(e.t.app, manager), emp: orgClient(e.t.app, employee) };
}

/** Lets these users create records in the app. */
export async function grantApp(e: BuildEngine, appCode: string, userIds: string[]) {
  for (const unitId of userIds) await e.a.post('/v1/functionnode/auth/set', { code: appCode, unitId, permission: 'create' });
}

/** A new member in the role called `name` (the one a template made); answers their client and user id. */
export async function memberInRole(e: BuildEngine, roleName: string, appCode: string) {
  const role = await engineDb(e.t.database.db, e.admin.engineCode).selectFrom('org_units').select('id').where('unit_type', '=', 'Role').where('name', '=', roleName).executeTakeFirstOrThrow();
  const member = await addInvitedMember(e.t, e.admin, { name: roleName });
  await e.a.post('/v1/org/role/member/add', { roleId: role.id, userIds: [member.userId] });
  await grantApp(e, appCode, [member.userId]);
  return { client: orgClient(e.t.app, member), userId: member.userId };
}

/** Each widget of a dashboard with its data: title → rows (dimension values, then measures). */
export async function boardData(client: OrgClient, code: string): Promise<Record<string, unknown[][]>> {
  const board = await client.get('/v1/dashboard/load', { code });
  const out: Record<string, unknown[][]> = {};
  for (const widget of board.definition.widgets) out[widget.title] = (await client.post('/v1/report/data', { widget })).rows;
  return out;
}

/** A widget's rows as a map: first column → the measure (numbers). */
export const byGroup = (rows: unknown[][]) => Object.fromEntries(rows.map((r) => [String(r[0]), Number(r[r.length - 1])]));

/** Sums `value` of items grouped by `key`. */
export function sumBy<T>(items: T[], key: (item: T) => string, value: (item: T) => number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + value(item);
  return out;
}

/** The open work item of a person on a record's flow. */
export async function itemOf(client: OrgClient, schemaCode: string, objectId: string): Promise<string | undefined> {
  const r = await client.get('/v1/workflow/instance/info', { schemaCode, objectId });
  return r.myItems[0]?.workItemId;
}

/** Agrees to a person's open item on a record's flow. */
export async function approve(client: OrgClient, schemaCode: string, objectId: string, text = '同意') {
  const item = await itemOf(client, schemaCode, objectId);
  if (!item) throw new Error('no open item');
  return client.post('/v1/workflow/instance/submit', { workItemId: item, opinion: { text } });
}

/** A record's data status as the form runtime answers it. */
export async function statusOf(client: OrgClient, schemaCode: string, objectId: string): Promise<number> {
  return (await client.post('/v1/form/loaddata', { schemaCode, objectId })).status;
}

import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { TestApp } from './helpers.ts';
import { addInvitedMember, addMember, orgClient, type InvitedMember, type OrgClient, type Person } from './org-helpers.ts';

export { FunctionNodeType };

/** A client of the function-node calls for one person (orgClient: ok/post/get/raw). */
export const nodeClient = orgClient;

let counter = 0;
/** A code unique within the test process. */
export function uniqueCode(prefix = 'App'): string {
  counter += 1;
  return `${prefix}${process.pid % 10000}_${counter}`;
}

/** PUT /v1/functionnode/sort as a person; answers the whole body. */
export async function putSort(t: TestApp, person: { token: string; engineCode: string }, body: unknown) {
  const res = await t.app.inject({ method: 'PUT', url: '/v1/functionnode/sort', headers: { authorization: `Bearer ${person.token}`, enginecode: person.engineCode }, payload: body as object });
  return res.json();
}

export async function createApp(client: OrgClient, overrides: Record<string, unknown> = {}) {
  return client.post('/v1/functionnode', { code: uniqueCode(), displayName: '销售管理', nodeType: FunctionNodeType.AppPackage, ...overrides });
}

export async function createNode(client: OrgClient, appCode: string, nodeType: number, overrides: Record<string, unknown> = {}) {
  return client.post('/v1/functionnode', {
    code: uniqueCode('N'),
    appCode,
    displayName: '客户信息',
    nodeType,
    ...(nodeType === FunctionNodeType.CustomLinkModule ? { url: 'https://example.com/a' } : {}),
    ...overrides,
  });
}

/** An app with a group holding two forms and a report at the top level. */
export async function createSampleApp(client: OrgClient) {
  const app = await createApp(client);
  const group = await createNode(client, app.code, FunctionNodeType.GroupModule, { displayName: '基础资料' });
  const form1 = await createNode(client, app.code, FunctionNodeType.FormModule, { parentCode: group.code, displayName: '客户' });
  const form2 = await createNode(client, app.code, FunctionNodeType.FormModule, { parentCode: group.code, displayName: '联系人' });
  const report = await createNode(client, app.code, FunctionNodeType.ReportModule, { displayName: '销售报表' });
  return { app, group, form1, form2, report };
}

/** A role holding the given users; answers its id. */
export async function createRole(t: TestApp, admin: Person, userIds: string[]): Promise<string> {
  const org = orgClient(t.app, admin);
  const group = await org.post('/v1/org/rolegroup/create', { name: `角色组${uniqueCode('g')}` });
  const role = await org.post('/v1/org/role/create', { groupId: group.id, name: `角色${uniqueCode('r')}` });
  if (userIds.length) await org.post('/v1/org/role/member/add', { roleId: role.id, userIds });
  return role.id as string;
}

export async function grant(admin: OrgClient, code: string, unitId: string, permission: 'none' | 'access' | 'create' | 'administrator') {
  return admin.post('/v1/functionnode/auth/set', { code, unitId, permission });
}

export { addInvitedMember, addMember, orgClient };
export type { InvitedMember, Person, OrgClient };

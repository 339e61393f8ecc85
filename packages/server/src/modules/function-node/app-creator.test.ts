import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserAuthType } from '@tritium/shared/constants/org';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType as T, addInvitedMember, createApp, createNode, createSampleApp, grant, nodeClient, putSort, type OrgClient, type Person } from '../../../test/node-helpers.ts';

// docs/decisions/0115: an AppCreator creates apps and administers the apps they create; a 'create' grant on an app or
// group lets its holder add nodes inside it.

let t: TestApp;
let admin: Person;
let a: OrgClient;
let sample: Awaited<ReturnType<typeof createSampleApp>>;
type Member = Awaited<ReturnType<typeof addInvitedMember>>;
let creator: Member, maker: Member, reader: Member;

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  sample = await createSampleApp(a);
  creator = await addInvitedMember(t, admin, { name: '应用创建者', authType: UserAuthType.AppCreator });
  maker = await addInvitedMember(t, admin, { name: '可新建成员' });
  reader = await addInvitedMember(t, admin, { name: '只读成员' });
  await grant(a, sample.group.code, maker.userId, 'create');
  await grant(a, sample.app.code, reader.userId, 'access');
});
afterAll(() => t.close());

describe('AppCreator', () => {
  it('creates an app, sees it, administers it and builds in it', async () => {
    const c = nodeClient(t.app, creator);
    const app = await createApp(c, { displayName: '我的应用' });
    expect(app.permission).toBe('administrator');
    expect((await c.get('/v1/functionnode/app/list')).list.map((x: { code: string; isAdmin: boolean }) => [x.code, x.isAdmin])).toEqual([[app.code, true]]);
    expect((await c.get('/v1/functionnode/app/hascode/list')).codes).toEqual([app.code]);
    const form = await createNode(c, app.code, T.FormModule, { displayName: '我的表单' });
    expect((await c.post('/v1/functionnode/update', { code: form.code, displayName: '改过的表单' })).displayName).toBe('改过的表单');
    expect((await c.post('/v1/formdesign/load', { schemaCode: form.code })).draft).toBeTruthy();
  });

  it('administers no other app and does not reorder the app list', async () => {
    const c = nodeClient(t.app, creator);
    expect((await c.raw('POST', '/v1/functionnode', { appCode: sample.app.code, displayName: '新表单', nodeType: T.FormModule })).status).toBe(404);
    await grant(a, sample.app.code, creator.userId, 'access');
    expect((await c.raw('POST', '/v1/functionnode/update', { code: sample.app.code, displayName: '改名' })).body).toMatchObject({ errorCode: 230005 });
    expect((await putSort(t, creator, { code: sample.app.code, preCode: '' })).errorCode).toBe(230005);
  });

  it('a Personal user still creates no app', async () => {
    expect((await nodeClient(t.app, reader).raw('POST', '/v1/functionnode', { displayName: '我的应用', nodeType: T.AppPackage })).status).toBe(403);
  });
});

describe("a node's create right", () => {
  it('lets its holder add a module in the group, and nothing else', async () => {
    const m = nodeClient(t.app, maker);
    const form = await createNode(m, sample.app.code, T.FormModule, { parentCode: sample.group.code, displayName: '新增的表单' });
    expect(form).toMatchObject({ parentCode: sample.group.code, permission: 'create' });
    // Not at the app's top level (no right there), no rename, no removal.
    expect((await m.raw('POST', '/v1/functionnode', { appCode: sample.app.code, displayName: '顶层表单', nodeType: T.FormModule })).body).toMatchObject({ errorCode: 230005 });
    expect((await m.raw('POST', '/v1/functionnode/update', { code: form.code, displayName: '改名' })).body).toMatchObject({ errorCode: 230005 });
    expect((await m.raw('POST', '/v1/functionnode/remove', { code: form.code })).body).toMatchObject({ errorCode: 230005 });
  });

  it('access alone adds nothing', async () => {
    const r = nodeClient(t.app, reader);
    expect((await r.raw('POST', '/v1/functionnode', { appCode: sample.app.code, parentCode: sample.group.code, displayName: '新表单', nodeType: T.FormModule })).body).toMatchObject({ errorCode: 230005 });
  });
});

// test-databases: both — the install is the package layer's background job; sample data is found and removed by its marks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, orgClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import { FunctionNodeType as T, createApp, createNode } from '../../../test/node-helpers.ts';
import { definition, publish } from '../../../test/form-helpers.ts';

// Installing a template into another engine with progress, and its sample data (docs/decisions/0131).

let t: TestApp;
let adminA: Person, adminB: Person;
let a: OrgClient, b: OrgClient;
let appCode: string, formCode: string, templateId: string;

const submit = async (client: OrgClient, schemaCode: string, values: Record<string, unknown>) => {
  const res = await client.raw('POST', '/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values });
  expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
};
const countOf = async (client: OrgClient, schemaCode: string) => (await client.post('/v1/bizdata/count', { schemaCode })).total as number;
const progressOf = (client: OrgClient, actionId: string) => client.get('/v1/template/install/progress', { actionId });
async function runJobs() {
  for (let i = 0; i < 20 && (await t.app.extras.jobs.runOnce()); i++);
}

beforeAll(async () => {
  t = await createTestApp();
  adminA = await registerPerson(t.app, { engineName: '甲公司' });
  adminB = await registerPerson(t.app, { engineName: '乙公司' });
  a = orgClient(t.app, adminA);
  b = orgClient(t.app, adminB);
  const app = await createApp(a, { displayName: '费用报销' });
  appCode = app.code;
  formCode = (await createNode(a, app.code, T.FormModule, { displayName: '报销单' })).code;
  await publish(a, formCode, definition([{ type: 'textBox', code: 'Title', options: { displayName: '事由' } }, { type: 'number', code: 'Amount', options: { displayName: '金额' } }], { displayName: '报销单' }));
  for (const [title, amount] of [['差旅', 1200], ['办公用品', 300], ['招待', 860]] as const) await submit(a, formCode, { Title: title, Amount: amount });
  templateId = (await a.post('/v1/template/publish', { appCode, scope: 'Engine', name: '报销模板', category: '财务' })).templateId;
  // Sharing publishes the app again (version 2), this time with its records as sample data.
  const shared = await a.post('/v1/share/app/publish', { appCode, engineCodes: [adminB.engineCode], withSampleData: true });
  expect(shared).toMatchObject({ templateId, version: 2 });
});
afterAll(() => t.close());

describe('installing a template shared with another engine', () => {
  let installed: string;
  let installedForm: string;

  it('says what the template holds: one form with three sample records', async () => {
    const info = await b.get('/v1/template/info', { templateId });
    expect(info).toMatchObject({ formCount: 1, sampleCount: 3, isSharedToMe: true });
    expect(info.forms).toEqual([{ name: '报销单', sampleCount: 3 }]);
  });

  it('installs as a job with progress; the new app has its own codes and the sample records', async () => {
    const { actionId } = await b.post('/v1/template/install', { templateId, withSampleData: true });
    const waiting = await progressOf(b, actionId);
    expect(waiting).toMatchObject({ actionId, isComplete: false, appCode: null });
    await runJobs();
    const done = await progressOf(b, actionId);
    expect(done).toMatchObject({ isComplete: true, progress: 100 });
    installed = done.appCode;
    expect(installed).toBeTruthy();
    expect(installed).not.toBe(appCode);
    const features = await b.get(`/v1/functionNode/app/feature/list?appCode=${installed}`);
    installedForm = features.list.find((n: { nodeType: number }) => n.nodeType === T.FormModule).code;
    expect(installedForm).not.toBe(formCode);
    expect(await countOf(b, installedForm)).toBe(3);
    expect((await b.get('/v1/template/info', { templateId })).installCount).toBe(1);
    // Engine A's progress call does not see B's install.
    expect((await a.raw('GET', '/v1/template/install/progress', { actionId })).body.successful).toBe(false);
  });

  it('checksampledata counts exactly the sample records; clearsampledata removes exactly them', async () => {
    await submit(b, installedForm, { Title: '自己录入', Amount: 50 });
    expect(await countOf(b, installedForm)).toBe(4);
    const found = await b.post('/v1/template/checksampledata', { appCode: installed });
    expect(found).toEqual({ total: 3, forms: [{ schemaCode: installedForm, displayName: '报销单', count: 3 }] });
    expect(await b.post('/v1/template/clearsampledata', { appCode: installed })).toEqual({ removed: 3 });
    expect(await countOf(b, installedForm)).toBe(1);
    expect((await b.post('/v1/template/checksampledata', { appCode: installed })).total).toBe(0);
    expect(await b.post('/v1/template/clearsampledata', { appCode: installed })).toEqual({ removed: 0 });
  });

  it('an app made by hand has no sample data; the records of the source app are not sample data', async () => {
    expect((await a.post('/v1/template/checksampledata', { appCode })).total).toBe(0);
    expect(await a.post('/v1/template/clearsampledata', { appCode })).toEqual({ removed: 0 });
    expect(await countOf(a, formCode)).toBe(3);
  });

  it('installs without sample data when asked', async () => {
    const { actionId } = await b.post('/v1/template/install', { templateId, withSampleData: false });
    await runJobs();
    const done = await progressOf(b, actionId);
    const form = (await b.get(`/v1/functionNode/app/feature/list?appCode=${done.appCode}`)).list.find((n: { nodeType: number }) => n.nodeType === T.FormModule).code;
    expect(await countOf(b, form)).toBe(0);
  });

  it('sample data calls are for the app administrators; another engine app is not found', async () => {
    const member = orgClient(t.app, await addInvitedMember(t, adminB, { name: '成员' }));
    expect((await member.raw('POST', '/v1/template/clearsampledata', { appCode: installed })).status).toBe(404);
    expect((await a.raw('POST', '/v1/template/checksampledata', { appCode: installed })).status).toBe(404);
  });
});

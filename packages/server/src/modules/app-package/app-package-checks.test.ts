import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, createApp, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { checkAppForPackage } from './index.ts';
import { packageLimits, readPackageFile, writePackageFile } from './package-format.ts';
import { downloadPackage, drainJobs, uploadPackage } from './app-package.fixtures.ts';

// PGlite only (docs/testing.md): refusals before anything is written — the file's checks, forms outside the app, who may
// ask, other engines' packages (docs/decisions/0130).

let t: TestApp;
let adminA: Person, adminB: Person;
let a: OrgClient, b: OrgClient;
let appCode: string, outside: string, order: string;
let good: Buffer;
let packageId: string;

beforeAll(async () => {
  t = await createTestApp();
  adminA = await registerPerson(t.app, { engineName: '甲公司' });
  adminB = await registerPerson(t.app, { engineName: '乙公司' });
  a = nodeClient(t.app, adminA);
  b = nodeClient(t.app, adminB);
  // A form of another app, which the packaged app's order refers to.
  const other = (await createApp(a, { displayName: '基础数据' })).code as string;
  outside = (await createForm(a, other, { displayName: '产品' })).code as string;
  await publish(a, outside, definition([{ type: 'textBox', code: 'Title' }], { displayName: '产品' }));
  appCode = (await createApp(a, { displayName: '销售' })).code as string;
  order = (await createForm(a, appCode, { displayName: '订单' })).code as string;
  await publish(a, order, definition([{ type: 'textBox', code: 'Title' }, { type: 'associationQuery', code: 'Product', options: { schemaCode: outside } }], { displayName: '订单' }));
  const exported = await a.post('/v1/app-package/export', { appCode, sampleData: false });
  packageId = exported.packageId;
  good = await downloadPackage(t.app, adminA, packageId);
}, 60_000);
afterAll(() => t.close());

const packageRows = async () => Number((await sql<{ n: number }>`select count(*)::int as n from platform.app_packages`.execute(t.database.db)).rows[0]!.n);
const nodeRows = async (who: Person) => Number((await engineDb(t.database.db, who.engineCode).selectFrom('function_nodes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const installJobs = async () => Number((await sql<{ n: number }>`select count(*)::int as n from platform.jobs where kind = 'app.install'`.execute(t.database.db)).rows[0]!.n);

describe('a package file is checked before anything is written', () => {
  it('refuses a changed byte, a newer format, a newer schema, broken content and not-a-package, each with its reason', async () => {
    const before = await packageRows();
    // One byte of the package document changed inside the tar (the manifest's checksum then disagrees).
    const tar = gunzipSync(good);
    const at = tar.indexOf(Buffer.from('"订单"'));
    expect(at).toBeGreaterThan(0);
    const changed = Buffer.from(tar);
    changed[at + 1] = changed[at + 1]! ^ 1;
    const tampered = await uploadPackage(t.app, adminB, gzipSync(changed));
    expect(tampered.body).toMatchObject({ successful: false, errorCode: 500002, detail: { entry: 'package.json' } });
    expect(tampered.body.errorMessage).toContain('校验值不符');

    const content = await readPackageFile(good);
    const newer = await writePackageFile({ ...content, pkg: { ...content.pkg, formatVersion: 2 } });
    expect((await uploadPackage(t.app, adminB, newer)).body).toMatchObject({ successful: false, errorCode: 500003, detail: { formatVersion: 2, supported: 1 } });
    const future = await writePackageFile({ ...content, pkg: { ...content.pkg, schemaVersion: { ...content.pkg.schemaVersion, engine: '2099-01-01T0000_from-the-future' } } });
    expect((await uploadPackage(t.app, adminB, future)).body).toMatchObject({ successful: false, errorCode: 500004, detail: { migration: '2099-01-01T0000_from-the-future' } });
    const broken = await writePackageFile({ ...content, pkg: { ...content.pkg, forms: [{ ...content.pkg.forms[0]!, definition: { attributes: {}, controls: [{ type: 'hologram', code: 'X' }] } as never }] } });
    const invalid = (await uploadPackage(t.app, adminB, broken)).body;
    expect(invalid).toMatchObject({ successful: false, errorCode: 500006 });
    expect(invalid.detail.issues[0].path).toContain('forms.0.definition');
    expect((await uploadPackage(t.app, adminB, Buffer.from('这不是应用包'))).body).toMatchObject({ successful: false, errorCode: 500001 });
    expect((await uploadPackage(t.app, adminB, gzipSync(Buffer.alloc(2048, 1)))).body).toMatchObject({ successful: false, errorCode: 500001 });
    expect(await packageRows()).toBe(before);
  });

  it('refuses a file above the size limits (compressed, and unpacked) and keeps nothing', async () => {
    const before = await packageRows();
    const saved = { ...packageLimits };
    try {
      packageLimits.maxBytes = good.length - 1;
      const large = await uploadPackage(t.app, adminB, good);
      expect(large.body).toMatchObject({ successful: false, errorCode: 500005 });
      packageLimits.maxBytes = saved.maxBytes;
      packageLimits.maxUnpacked = 4096;
      expect((await uploadPackage(t.app, adminB, good)).body).toMatchObject({ successful: false, errorCode: 500005, detail: { maxBytes: 4096 } });
    } finally {
      Object.assign(packageLimits, saved);
    }
    expect(await packageRows()).toBe(before);
  });
});

describe('forms outside the app', () => {
  it('are listed as problems, carried in the package, and refused on install until mapped — before anything is written', async () => {
    const problems = await checkAppForPackage(t.database.db, adminA.engineCode, appCode);
    expect(problems).toEqual([{ path: `forms.${order}.definition`, message: `引用了应用之外的表单 ${outside}` }]);
    expect((await a.post('/v1/app-package/check', { appCode })).problems).toEqual(problems);
    const uploaded = (await uploadPackage(t.app, adminB, good)).body.data;
    expect(uploaded.summary.externalForms).toEqual([{ code: outside, name: '产品' }]);
    const [nodes, jobs] = [await nodeRows(adminB), await installJobs()];
    const refused = await b.raw('POST', '/v1/app-package/install', { packageId: uploaded.packageId, sampleData: false });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 500009, detail: { codes: outside } });
    const wrong = await b.raw('POST', '/v1/app-package/install', { packageId: uploaded.packageId, sampleData: false, formMapping: { [outside]: 'NoSuchForm' } });
    expect(wrong.body).toMatchObject({ successful: false, errorCode: 500013, detail: { code: 'NoSuchForm' } });
    expect([await nodeRows(adminB), await installJobs()]).toEqual([nodes, jobs]);

    // Mapped to a product form of B's own: installed, the association pointing to it.
    const mine = (await createApp(b, { displayName: '乙的基础数据' })).code as string;
    const product = (await createForm(b, mine, { displayName: '商品' })).code as string;
    await publish(b, product, definition([{ type: 'textBox', code: 'Title' }], { displayName: '商品' }));
    const { actionId } = await b.post('/v1/app-package/install', { packageId: uploaded.packageId, sampleData: false, formMapping: { [outside]: product } });
    await drainJobs(t);
    const done = await b.get('/v1/app-package/install/progress', { actionId });
    expect(done).toMatchObject({ state: 'Finished', isComplete: true });
    const features = (await b.get(`/v1/functionNode/app/feature/list?appCode=${done.appCode}`)).list;
    const installedOrder = features.find((n: { displayName: string }) => n.displayName === '订单').code;
    const def = (await b.post('/v1/formdesign/load', { schemaCode: installedOrder })).published.definition;
    expect(def.controls.find((c: { code: string }) => c.code === 'Product').options.schemaCode).toBe(product);
  });
});

describe('bad input and other engines', () => {
  it('answers catalogue errors and changes nothing', async () => {
    const before = [await nodeRows(adminB), await installJobs()];
    const unknown = '0190f1a0-0000-7000-8000-000000000000';
    expect((await b.raw('POST', '/v1/app-package/install', { packageId: unknown, sampleData: false })).body).toMatchObject({ errorCode: 500007 });
    // A's package is not B's to read or install.
    expect((await b.raw('POST', '/v1/app-package/info', { packageId })).body).toMatchObject({ errorCode: 500007 });
    expect((await b.raw('POST', '/v1/app-package/install', { packageId, sampleData: false })).body).toMatchObject({ errorCode: 500007 });
    expect((await b.raw('GET', '/v1/app-package/download', { packageId })).body).toMatchObject({ errorCode: 500007 });
    // A package without an owner (a template's) is reached only through the template calls, never by its id here.
    const ownerless = (await a.post('/v1/app-package/export', { appCode, sampleData: true })).packageId as string;
    await sql`update platform.app_packages set engine_code = null where id = ${ownerless}`.execute(t.database.db);
    for (const [method, path, body] of [['POST', '/v1/app-package/info', { packageId: ownerless }], ['POST', '/v1/app-package/install', { packageId: ownerless, sampleData: true }], ['GET', '/v1/app-package/download', { packageId: ownerless }]] as const) {
      expect((await b.raw(method, path, body)).body, path).toMatchObject({ errorCode: 500007 });
    }
    expect((await b.raw('POST', '/v1/app-package/export', { appCode, sampleData: false })).body.successful).toBe(false);
    expect((await b.raw('POST', '/v1/app-package/install', { packageId: 'not-an-id\u0000', sampleData: false })).body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await b.raw('POST', '/v1/app-package/install', { packageId: unknown, sampleData: 'yes' })).body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await b.raw('GET', '/v1/app-package/install/progress', { actionId: unknown })).body).toMatchObject({ errorCode: 500011 });
    expect((await b.raw('POST', '/v1/app-package/install/cancel', { actionId: unknown })).body).toMatchObject({ errorCode: 500011 });
    // A member who is neither an administrator nor an app creator.
    const member = await addMember(t, adminB, { name: '王五' });
    const m = nodeClient(t.app, member);
    const own = (await uploadPackage(t.app, adminB, good)).body.data.packageId;
    const forbidden = await m.raw('POST', '/v1/app-package/install', { packageId: own, sampleData: false });
    expect(forbidden).toMatchObject({ status: 403, body: { errorCode: 500010 } });
    expect((await uploadPackage(t.app, member, good)).body).toMatchObject({ errorCode: 500010 });
    expect([await nodeRows(adminB), await installJobs()]).toEqual(before.slice(0, 2));
  });

  it('refuses to package an app whose script calls the engine\'s connectors, naming where', async () => {
    const app = (await createApp(a, { displayName: '对接' })).code as string;
    const form = (await createForm(a, app, { displayName: '同步单' }, FunctionNodeType.FormModule)).code as string;
    await publish(a, form, definition([{ type: 'textBox', code: 'Title' }], { displayName: '同步单' }));
    const source = `export async function onSubmit(ctx: ScriptContext) {\n  await (ctx as any).connectors.call('erp', {});\n}\n`;
    await a.post('/v1/codeeditor/save', { appCode: app, schemaCode: form, part: 'form-server', language: 'ts', source, baseVersion: 0 });
    const problems = await checkAppForPackage(t.database.db, adminA.engineCode, app);
    expect(problems).toEqual([{ path: `forms.${form}.scripts.form-server`, message: '脚本调用了本组织的连接器或连接' }]);
    const refused = await a.raw('POST', '/v1/app-package/export', { appCode: app, sampleData: false });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 500008, detail: { count: 1 } });
  });
});

describe('forms that refer to each other', () => {
  it('installs two forms referring to each other and a form referring to itself, every reference in place', async () => {
    const app = (await createApp(a, { displayName: '往来' })).code as string;
    const first = (await createForm(a, app, { displayName: '甲表' })).code as string;
    const second = (await createForm(a, app, { displayName: '乙表' })).code as string;
    const tree = (await createForm(a, app, { displayName: '树表' })).code as string;
    await publish(a, first, definition([{ type: 'textBox', code: 'Title' }], { displayName: '甲表' }));
    await publish(a, second, definition([{ type: 'textBox', code: 'Title' }, { type: 'associationQuery', code: 'First', options: { schemaCode: first } }], { displayName: '乙表' }));
    await publish(a, first, definition([{ type: 'textBox', code: 'Title' }, { type: 'associationQuery', code: 'Second', options: { schemaCode: second } }], { displayName: '甲表' }));
    await publish(a, tree, definition([{ type: 'textBox', code: 'Title' }], { displayName: '树表' }));
    await publish(a, tree, definition([{ type: 'textBox', code: 'Title' }, { type: 'associationQuery', code: 'Parent', options: { schemaCode: tree } }], { displayName: '树表' }));
    const exported = await a.post('/v1/app-package/export', { appCode: app, sampleData: false });
    const uploaded = (await uploadPackage(t.app, adminB, await downloadPackage(t.app, adminA, exported.packageId))).body.data;
    const { actionId } = await b.post('/v1/app-package/install', { packageId: uploaded.packageId, sampleData: false });
    await drainJobs(t);
    const done = await b.get('/v1/app-package/install/progress', { actionId });
    expect(done.state).toBe('Finished');
    const features = (await b.get(`/v1/functionNode/app/feature/list?appCode=${done.appCode}`)).list as { code: string; displayName: string }[];
    const codeOf = (name: string) => features.find((n) => n.displayName === name)!.code;
    const refOf = async (name: string, control: string) => (await b.post('/v1/formdesign/load', { schemaCode: codeOf(name) })).published.definition.controls.find((c: { code: string }) => c.code === control).options.schemaCode;
    expect(await refOf('甲表', 'Second')).toBe(codeOf('乙表'));
    expect(await refOf('乙表', 'First')).toBe(codeOf('甲表'));
    expect(await refOf('树表', 'Parent')).toBe(codeOf('树表'));
  });
});

// test-databases: both — several processes registering the same built-ins at once leave one row per template (one insert-or-update decides).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { orgClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import { FunctionNodeType as T, createApp, createNode } from '../../../test/node-helpers.ts';
import { definition, publish } from '../../../test/form-helpers.ts';
import { createLocalFileStore } from '../files/file-store.ts';
import { registerBuiltInTemplates } from './builtin-registry.ts';

// Built-in templates shipped as package files with a manifest (docs/decisions/0131 "Built-in templates"). Until the
// built-in apps exist as files, the test makes a package from an app it builds and puts it in a temporary folder.

let t: TestApp;
let maker: Person, other: Person;
let a: OrgClient, b: OrgClient;
let formCode: string, appCode: string;
const dir = mkdtempSync(path.join(tmpdir(), 'tritium-builtins-'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'tritium-builtins-data-'));
/** The app's own file store (the one its routes read packages from). */
const storeOfApp = () => createLocalFileStore(path.join(dataDir, 'files'));

const builtInRows = () =>
  t.database.db.selectFrom('platform.templates' as never).select(['id', 'code', 'version', 'package_id', 'name'] as never[]).where('built_in' as never, '=', true as never).execute() as Promise<{ id: string; code: string; version: number; package_id: string; name: string }[]>;

async function writePackage(file: string) {
  const exported = await a.post('/v1/app-package/export', { appCode, sampleData: true });
  const res = await t.app.inject({ method: 'GET', url: '/v1/app-package/download', query: { packageId: exported.packageId }, headers: { authorization: `Bearer ${maker.token}`, enginecode: maker.engineCode } });
  expect(res.statusCode).toBe(200);
  writeFileSync(path.join(dir, file), res.rawPayload);
}
const manifest = (overrides: Record<string, unknown> = {}) => ({ code: 'leave', name: '请假审批', category: '人事行政', summary: '请假与审批', icon: '', iconColor: '', package: 'leave.tritium-app.tar.gz', pictures: ['leave-1.png'], ...overrides });

beforeAll(async () => {
  process.env.TRITIUM_TEMPLATES_DIR = dir;
  t = await createTestApp({ config: { dataDir } });
  maker = await registerPerson(t.app, { engineName: '模板制作' });
  other = await registerPerson(t.app, { engineName: '新公司' });
  a = orgClient(t.app, maker);
  b = orgClient(t.app, other);
  const app = await createApp(a, { displayName: '请假审批' });
  appCode = app.code;
  formCode = (await createNode(a, app.code, T.FormModule, { displayName: '请假单' })).code;
  await publish(a, formCode, definition([{ type: 'textBox', code: 'Reason', options: { displayName: '事由' } }, { type: 'number', code: 'Days', options: { displayName: '天数' } }], { displayName: '请假单' }));
  for (const days of [1, 2]) await a.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Submit', values: { Reason: `事假${days}`, Days: days } });
  await writePackage('leave.tritium-app.tar.gz');
  writeFileSync(path.join(dir, 'leave-1.png'), await sharp({ create: { width: 6, height: 6, channels: 3, background: { r: 0, g: 120, b: 0 } } }).png().toBuffer());
  writeFileSync(path.join(dir, 'leave.template.json'), JSON.stringify(manifest()));
});
afterAll(async () => {
  delete process.env.TRITIUM_TEMPLATES_DIR;
  await t.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('registering the built-in templates', () => {
  it('registers once when several processes start together', async () => {
    const results = await Promise.all([1, 2, 3].map(() => registerBuiltInTemplates({ db: t.database.db, store: storeOfApp() }, dir)));
    expect(results.every((r) => r.failed.length === 0)).toBe(true);
    const rows = await builtInRows();
    expect(rows.map((r) => [r.code, r.name, r.version])).toEqual([['leave', '请假审批', 1]]);
    const again = await registerBuiltInTemplates({ db: t.database.db, store: storeOfApp() }, dir);
    expect(again).toEqual({ registered: [], unchanged: ['leave'], failed: [] });
    expect(await builtInRows()).toEqual(rows);
  });

  it('every engine sees it under 内置模板, with its forms, samples and pictures', async () => {
    const list = await b.get('/v1/template/list', { source: 'builtIn' });
    expect(list.list).toHaveLength(1);
    expect(list.list[0]).toMatchObject({ code: 'leave', name: '请假审批', category: '人事行政', builtIn: true, publisherName: null, formCount: 1, sampleCount: 2, pictureCount: 1 });
    const info = await b.get('/v1/template/info', { templateId: list.list[0].id });
    expect(info.forms).toEqual([{ name: '请假单', sampleCount: 2 }]);
    const picture = await t.app.inject({ method: 'GET', url: info.pictures[0], headers: { authorization: `Bearer ${other.token}`, enginecode: other.engineCode } });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect((await b.raw('POST', '/v1/template/remove', { templateId: info.id })).body.errorCode).toBe(500108);
  });

  it('installs into a fresh engine with its sample data', async () => {
    const [row] = await builtInRows();
    const { actionId } = await b.post('/v1/template/install', { templateId: row!.id, withSampleData: true });
    for (let i = 0; i < 20 && (await t.app.extras.jobs.runOnce()); i++);
    const done = await b.get('/v1/template/install/progress', { actionId });
    expect(done).toMatchObject({ isComplete: true, state: 'Finished' });
    expect((await b.post('/v1/template/checksampledata', { appCode: done.appCode })).total).toBe(2);
  });

  it('a changed package becomes the next version of the same template', async () => {
    const [before] = await builtInRows();
    await a.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Submit', values: { Reason: '年假', Days: 5 } });
    await writePackage('leave.tritium-app.tar.gz');
    const result = await registerBuiltInTemplates({ db: t.database.db, store: storeOfApp() }, dir);
    expect(result.registered).toEqual(['leave']);
    const rows = await builtInRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: before!.id, version: 2 });
    expect(rows[0]!.package_id).not.toBe(before!.package_id);
    expect((await b.get('/v1/template/info', { templateId: before!.id })).sampleCount).toBe(3);
  });

  it('a manifest that is wrong is reported and registers nothing', async () => {
    writeFileSync(path.join(dir, 'bad.template.json'), JSON.stringify(manifest({ code: 'bad', name: '坏模板', category: '不存在的分类' })));
    writeFileSync(path.join(dir, 'escape.template.json'), JSON.stringify(manifest({ code: 'escape', name: '越界', package: '../leave.tritium-app.tar.gz' })));
    writeFileSync(path.join(dir, 'missing.template.json'), JSON.stringify(manifest({ code: 'missing', name: '缺文件', package: 'none.tritium-app.tar.gz' })));
    const result = await registerBuiltInTemplates({ db: t.database.db, store: storeOfApp() }, dir);
    expect(result.failed.map((f) => f.file).sort()).toEqual(['bad.template.json', 'escape.template.json', 'missing.template.json']);
    expect((await builtInRows()).map((r) => r.code)).toEqual(['leave']);
  });
});

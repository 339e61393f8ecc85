import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserAuthType } from '@tritium/shared/constants/org';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { loadScript } from './load-script.ts';

// The code editor's calls (issue 43; docs/decisions/0118): versions with authors, the conflict of two editors, roll
// back as a new version, the rights (app administrators only; the runtime script for whoever opens the form), bad
// input answered 777 with nothing written, and the type check's diagnostics with the script's own lines.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, order: string;
let subAdmin: OrgClient, member: OrgClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app, { userName: '王管理' });
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a, { displayName: '销售' })).code;
  order = (await createForm(a, appCode, { displayName: '订单' })).code as string;
  await publish(a, order, definition([{ type: 'number', code: 'Amount' }, { type: 'textBox', code: 'Note' }]));
  const sub = await addInvitedMember(t, admin, { name: '李应用', authType: UserAuthType.SubAdministrator });
  await grant(a, appCode, sub.userId, 'administrator');
  subAdmin = nodeClient(t.app, sub);
  const plain = await addInvitedMember(t, admin, { name: '赵成员' });
  await grant(a, appCode, plain.userId, 'access');
  member = nodeClient(t.app, plain);
});
afterAll(async () => {
  await t?.close();
});

const SUBMIT = `export async function onSubmit(ctx: ScriptContext) {\n  if (Number(ctx.record.Amount) > 100) ctx.refuse('金额超限');\n}\n`;
const save = (client: OrgClient, body: Record<string, unknown>) => client.raw('POST', '/v1/codeeditor/save', { appCode, schemaCode: order, part: 'form-server', language: 'ts', ...body });

describe('the code editor', () => {
  it('loads starter templates, saves versions with their authors, refuses a stale save and rolls back as a new version', async () => {
    const loaded = await a.post('/v1/codeeditor/load', { schemaCode: order });
    expect(loaded).toMatchObject({ appCode, appName: '销售', schemaCode: order, formName: '订单', canEdit: true });
    expect(loaded.parts.map((p: { part: string; version: number }) => [p.part, p.version])).toEqual([['form-server', 0], ['form-browser', 0]]);
    expect(loaded.parts[0].source).toContain('onSubmit');

    const first = await save(a, { source: SUBMIT, baseVersion: 0 });
    expect(first.body.data.version).toBe(1);
    const second = await save(subAdmin, { source: SUBMIT.replace('100', '200'), baseVersion: 1 });
    expect(second.body.data.version).toBe(2);
    // The first editor still holds version 1: refused, nothing written.
    const stale = await save(a, { source: '// 我的修改\n', baseVersion: 1 });
    expect(stale.body).toMatchObject({ successful: false, errorCode: 410101 });
    expect(stale.body.errorMessage).toContain('第 2 版');

    const versions = (await a.post('/v1/codeeditor/versions', { appCode, schemaCode: order, part: 'form-server' })).list;
    expect(versions.map((v: { version: number; authorName: string }) => [v.version, v.authorName])).toEqual([[2, '李应用'], [1, '王管理']]);
    expect(versions[1].size).toBe(Buffer.byteLength(SUBMIT));
    expect((await a.post('/v1/codeeditor/version', { appCode, schemaCode: order, part: 'form-server', version: 1 })).source).toBe(SUBMIT);

    const rolled = await a.post('/v1/codeeditor/rollback', { appCode, schemaCode: order, part: 'form-server', version: 1 });
    expect(rolled.version).toBe(3);
    const after = await a.post('/v1/codeeditor/load', { appCode, schemaCode: order });
    expect(after.parts[0]).toMatchObject({ version: 3, source: SUBMIT, authorName: '王管理' });
    const missing = await a.raw('POST', '/v1/codeeditor/rollback', { appCode, schemaCode: order, part: 'form-server', version: 99 });
    expect(missing.body).toMatchObject({ successful: false, errorCode: 410103 });

    // Every save is in the operation log.
    const log = await a.get('/v1/admin/oplog/list', { text: '后端代码' });
    expect(log.list.length).toBe(3);
  });

  it('refuses a source that does not compile, with its line, and keeps the compiled browser script for the form runtime', async () => {
    const broken = await a.raw('POST', '/v1/codeeditor/save', { appCode, schemaCode: order, part: 'form-browser', language: 'js', source: 'export function onLoad(form) {\n  form.hide(\n}\n', baseVersion: 0 });
    expect(broken.body).toMatchObject({ successful: false, errorCode: 410102 });
    expect(broken.body.errorMessage).toContain('第 3 行');
    expect((await member.post('/v1/codeeditor/runtime', { schemaCode: order })).script).toBeNull();

    const source = `export function onChange(form: ScriptForm, field: string) {\n  if (field === 'Amount') form.hide('Note');\n}\n`;
    await a.post('/v1/codeeditor/save', { appCode, schemaCode: order, part: 'form-browser', language: 'ts', source, baseVersion: 0 });
    const runtime = (await member.post('/v1/codeeditor/runtime', { schemaCode: order })).script;
    expect(runtime.version).toBe(1);
    expect(runtime.js).toContain('onChange');
    expect(runtime.js).not.toContain(': ScriptForm');
  });

  it('lets only app administrators load, save, check, list and roll back', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['load', { appCode, schemaCode: order }],
      ['save', { appCode, schemaCode: order, part: 'form-server', language: 'ts', source: '// x', baseVersion: 3 }],
      ['check', { appCode, part: 'form-server', language: 'ts', source: 'const a = 1;' }],
      ['check', { part: 'form-server', language: 'ts', source: 'const a = 1;' }],
      ['versions', { appCode, schemaCode: order, part: 'form-server' }],
      ['version', { appCode, schemaCode: order, part: 'form-server', version: 1 }],
      ['rollback', { appCode, schemaCode: order, part: 'form-server', version: 1 }],
    ];
    for (const [route, body] of calls) {
      const res = await member.raw('POST', `/v1/codeeditor/${route}`, body);
      expect([route, res.status, res.body.errorCode]).toEqual([route, 403, 230005]);
    }
    expect((await a.post('/v1/codeeditor/versions', { appCode, schemaCode: order, part: 'form-server' })).list).toHaveLength(3);
  });

  it('answers bad input with 777 in Chinese and writes nothing', async () => {
    const bad: Record<string, unknown>[] = [
      { appCode: 'NoSuchApp', schemaCode: order },
      { schemaCode: 'NoSuchForm' },
      { part: 'app-api' },
      { part: 'nonsense' },
      { source: 'const a = 1;\u0000' },
      { source: 'x'.repeat(256 * 1024 + 1) },
      { language: 'python' },
    ];
    for (const change of bad) {
      const res = await save(a, { source: '// ok', baseVersion: 3, ...change });
      expect(res.body.errorCode, JSON.stringify(change).slice(0, 80)).toBe(777);
      expect(JSON.stringify(res.body)).toMatch(/[\u4e00-\u9fa5]/);
    }
    const appPart = await a.raw('POST', '/v1/codeeditor/save', { appCode, part: 'form-server', language: 'ts', source: '// x', baseVersion: 0 });
    expect(appPart.body.errorCode).toBe(777);
    expect((await a.post('/v1/codeeditor/versions', { appCode, schemaCode: order, part: 'form-server' })).list).toHaveLength(3);
  });

  it("keeps the app's custom APIs apart from its forms' code", async () => {
    const loaded = await a.post('/v1/codeeditor/load', { appCode });
    expect(loaded.parts.map((p: { part: string }) => p.part)).toEqual(['app-api']);
    const source = `export const actions = { async hello(ctx: ScriptContext) { return { ok: true }; } };\n`;
    expect((await a.post('/v1/codeeditor/save', { appCode, part: 'app-api', language: 'ts', source, baseVersion: 0 })).version).toBe(1);
    const edb = engineDb(t.database.db, admin.engineCode);
    expect(await loadScript(edb, { appCode, schemaCode: null, part: 'app-api' })).toEqual({ source, language: 'ts', version: 1 });
    expect(await loadScript(edb, { appCode, schemaCode: order, part: 'form-server' })).toMatchObject({ version: 3, language: 'ts' });
  });

  it('type-checks against the script API and answers diagnostics at the script’s own lines', async () => {
    const source = `export async function onSubmit(ctx: ScriptContext) {\n  const n: number = ctx.record.Amount as string;\n  ctx.records.nope();\n}\n`;
    const started = performance.now();
    const { diagnostics } = await a.post('/v1/codeeditor/check', { appCode, schemaCode: order, part: 'form-server', language: 'ts', source });
    const first = performance.now() - started;
    expect(diagnostics.map((d: { line: number; severity: string }) => [d.line, d.severity])).toEqual([[2, 'error'], [3, 'error']]);
    expect(diagnostics[1].message).toContain('nope');
    const again = performance.now();
    const clean = await a.post('/v1/codeeditor/check', { appCode, part: 'form-server', language: 'ts', source: SUBMIT });
    const second = performance.now() - again;
    expect(clean.diagnostics).toEqual([]);
    // The library declarations are parsed once: a later check is much faster than the first.
    expect(second).toBeLessThan(Math.max(first / 2, 1000));
    const js = await a.post('/v1/codeeditor/check', { appCode, part: 'form-browser', language: 'js', source: 'export function onLoad(form) {\n  if (\n}\n' });
    expect(js.diagnostics[0]).toMatchObject({ line: 3, severity: 'error' });
  });
});

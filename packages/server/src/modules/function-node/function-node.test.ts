import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType as T, createApp, createNode, createSampleApp, nodeClient, putSort, uniqueCode, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { listNodesByApp } from './function-node.repo.ts';

let t: TestApp;
let admin: Person;
let c: OrgClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app);
  c = nodeClient(t.app, admin);
});
afterAll(() => t.close());

const codesOf = (list: { code: string }[]) => list.map((n) => n.code);

describe('creating apps and nodes', () => {
  it('creates an app as an AppPackage node, state Normal, source Own, listed and in the admin app codes', async () => {
    const app = await createApp(c, { displayName: '采购管理', icon: 'icon-cart', iconColor: '#1890ff' });
    expect(app).toMatchObject({ nodeType: 190, appState: 'Normal', source: 'Own', state: 'Normal', parentCode: null, appCode: app.code, displayName: '采购管理', permission: 'administrator' });
    expect(app.objectId).toMatch(/^[0-9a-f-]{36}$/);
    const list = await c.get('/v1/functionnode/app/list');
    expect(codesOf(list.list)).toContain(app.code);
    expect((await c.get('/v1/functionnode/app/hascode/list')).codes).toContain(app.code);
  });

  it('generates a code when none is given', async () => {
    const app = await c.post('/v1/functionnode', { displayName: '自动编码', nodeType: T.AppPackage });
    expect(app.code).toMatch(/^A[0-9a-f]{12}$/);
  });

  it('takes names of 2 and 32 characters and refuses 1 and 33 (777, nothing written)', async () => {
    expect((await createApp(c, { displayName: '甲乙' })).displayName).toBe('甲乙');
    expect((await createApp(c, { displayName: '名'.repeat(32) })).displayName).toHaveLength(32);
    for (const displayName of ['甲', '名'.repeat(33), '  甲 ']) {
      const code = uniqueCode();
      const res = await c.raw('POST', '/v1/functionnode', { code, displayName, nodeType: T.AppPackage });
      expect(res.body).toMatchObject({ successful: false, errorCode: 777 });
      expect(res.body.detail.issues.map((i: { path: string }) => i.path)).toContain('displayName');
      expect(await engineDb(t.database.db, admin.engineCode).selectFrom('function_nodes').select('code').where('code', '=', code).executeTakeFirst()).toBeUndefined();
    }
  });

  it('refuses codes outside the code pattern', async () => {
    for (const code of ['123', 'a-b', '销售', 'a b', 'x'.repeat(65)]) {
      const res = await c.raw('POST', '/v1/functionnode', { code, displayName: '销售管理', nodeType: T.AppPackage });
      expect(res.body, code).toMatchObject({ successful: false, errorCode: 777 });
    }
    expect((await createApp(c, { code: `_a1_${process.pid}` })).code).toBe(`_a1_${process.pid}`);
  });

  it('keeps codes unique in the engine, case-insensitively, across apps and nodes', async () => {
    const app = await createApp(c);
    const res = await c.raw('POST', '/v1/functionnode', { code: app.code.toUpperCase(), displayName: '重复', nodeType: T.AppPackage });
    expect(res.body).toMatchObject({ successful: false, errorCode: 230002 });
    const res2 = await c.raw('POST', '/v1/functionnode', { code: app.code, appCode: app.code, displayName: '重复', nodeType: T.FormModule });
    expect(res2.body).toMatchObject({ successful: false, errorCode: 230002 });
  });

  it('creates every node type inside an app; a custom link needs a url', async () => {
    const app = await createApp(c);
    for (const type of [T.FormModule, T.WorkflowModule, T.ReportModule, T.GroupModule, T.SingletonModule, T.ChatWorkflowModule, T.DashBoardModule, T.CustomLinkModule, T.DataSourceModule]) {
      const node = await createNode(c, app.code, type);
      expect(node).toMatchObject({ nodeType: type, appCode: app.code, parentCode: app.code, state: 'Normal' });
    }
    const res = await c.raw('POST', '/v1/functionnode', { appCode: app.code, displayName: '链接', nodeType: T.CustomLinkModule });
    expect(res.body.detail.issues.map((i: { path: string }) => i.path)).toContain('url');
    const unknownType = await c.raw('POST', '/v1/functionnode', { appCode: app.code, displayName: '未知', nodeType: 260 });
    expect(unknownType.body).toMatchObject({ errorCode: 777 });
  });

  it('puts modules under the app or a group of the same app, groups only directly under the app', async () => {
    const a = await createSampleApp(c);
    const b = await createApp(c);
    const underForm = await c.raw('POST', '/v1/functionnode', { appCode: a.app.code, parentCode: a.form1.code, displayName: '子表单', nodeType: T.FormModule });
    expect(underForm.body).toMatchObject({ errorCode: 230003 });
    const groupInGroup = await c.raw('POST', '/v1/functionnode', { appCode: a.app.code, parentCode: a.group.code, displayName: '子分组', nodeType: T.GroupModule });
    expect(groupInGroup.body).toMatchObject({ errorCode: 230003 });
    const otherAppsGroup = await c.raw('POST', '/v1/functionnode', { appCode: b.code, parentCode: a.group.code, displayName: '跨应用', nodeType: T.FormModule });
    expect(otherAppsGroup.body).toMatchObject({ errorCode: 230001 });
    const noApp = await c.raw('POST', '/v1/functionnode', { appCode: 'NoSuchApp', displayName: '孤儿', nodeType: T.FormModule });
    expect(noApp.body).toMatchObject({ errorCode: 230001 });
  });
});

describe('reading apps', () => {
  it('answers the app list with the children tree and the default schema', async () => {
    const a = await createSampleApp(c);
    const list = await c.get('/v1/functionnode/app/list');
    const app = list.list.find((x: { code: string }) => x.code === a.app.code);
    expect(app.children.map((n: { code: string }) => n.code)).toEqual([a.group.code, a.report.code]);
    expect(app.children[0].children.map((n: { code: string }) => n.code)).toEqual([a.form1.code, a.form2.code]);
    expect(app.defaultSchemaCode).toBe(a.form1.code);
    expect(app.isAdmin).toBe(true);
    const bare = await c.get('/v1/functionnode/app/list', { withChildren: 'false' });
    expect(bare.list.find((x: { code: string }) => x.code === a.app.code).children).toEqual([]);
  });

  it('default schema: the first child among eligible types, or the first of the first group, skipping what is not eligible', async () => {
    const app = await createApp(c);
    const feature = () => c.get('/v1/functionNode/app/feature/list', { appCode: app.code });
    expect((await feature()).defaultSchemaCode).toBeNull();
    await createNode(c, app.code, T.DataSourceModule); // not an eligible type
    const group = await createNode(c, app.code, T.GroupModule);
    expect((await feature()).defaultSchemaCode).toBeNull(); // empty group
    const inGroup = await createNode(c, app.code, T.DashBoardModule, { parentCode: group.code });
    expect((await feature()).defaultSchemaCode).toBe(inGroup.code);
    const top = await createNode(c, app.code, T.CustomLinkModule);
    await c.ok('POST', '/v1/functionnode/update', { code: group.code, state: 'Disabled' });
    expect((await feature()).defaultSchemaCode).toBe(top.code);
    await c.ok('POST', '/v1/functionnode/update', { code: group.code, state: 'Normal' });
    expect((await feature()).defaultSchemaCode).toBe(inGroup.code);
    expect((await putSort(t, admin, { code: top.code, preCode: '' })).successful).toBe(true);
    expect((await feature()).defaultSchemaCode).toBe(top.code);
  });

  describe('default schema in the app list without children (walked in SQL) is the one of the tree', () => {
    // The list without children finds the default schema in SQL; the feature list and the list with children walk
    // the tree in memory. Both must agree, and with the rule.
    const schemaOf = async (appCode: string) => {
      const bare = (await c.get('/v1/functionnode/app/list', { withChildren: 'false' })).list.find((x: { code: string }) => x.code === appCode);
      const full = (await c.get('/v1/functionnode/app/list')).list.find((x: { code: string }) => x.code === appCode);
      const feature = await c.get('/v1/functionNode/app/feature/list', { appCode });
      expect(bare.children).toEqual([]);
      expect({ ...full, children: [] }).toEqual(bare);
      expect(feature.defaultSchemaCode).toBe(bare.defaultSchemaCode);
      return bare.defaultSchemaCode as string | null;
    };
    const disable = (code: string) => c.ok('POST', '/v1/functionnode/update', { code, state: 'Disabled' });

    it('a disabled group is passed over, its modules with it', async () => {
      const app = await createApp(c);
      const group = await createNode(c, app.code, T.GroupModule);
      await createNode(c, app.code, T.FormModule, { parentCode: group.code });
      const top = await createNode(c, app.code, T.WorkflowModule);
      await disable(group.code);
      expect(await schemaOf(app.code)).toBe(top.code);
    });

    it('an empty group, or one of ineligible or disabled modules, before a module at the app root', async () => {
      const app = await createApp(c);
      await createNode(c, app.code, T.GroupModule);
      const ineligible = await createNode(c, app.code, T.GroupModule);
      await createNode(c, app.code, T.DataSourceModule, { parentCode: ineligible.code });
      await createNode(c, app.code, T.ChatWorkflowModule, { parentCode: ineligible.code });
      await disable((await createNode(c, app.code, T.FormModule, { parentCode: ineligible.code })).code);
      const top = await createNode(c, app.code, T.SingletonModule);
      expect(await schemaOf(app.code)).toBe(top.code);
    });

    it('a group with eligible modules before a module at the app root yields its first Normal eligible module', async () => {
      const app = await createApp(c);
      await disable((await createNode(c, app.code, T.DashBoardModule)).code);
      const group = await createNode(c, app.code, T.GroupModule);
      await createNode(c, app.code, T.DataSourceModule, { parentCode: group.code });
      await disable((await createNode(c, app.code, T.FormModule, { parentCode: group.code })).code);
      const first = await createNode(c, app.code, T.ReportModule, { parentCode: group.code });
      await createNode(c, app.code, T.FormModule, { parentCode: group.code });
      await createNode(c, app.code, T.FormModule);
      expect(await schemaOf(app.code)).toBe(first.code);
    });

    it('null for an app without an eligible Normal node', async () => {
      const app = await createApp(c);
      expect(await schemaOf(app.code)).toBeNull();
      const group = await createNode(c, app.code, T.GroupModule);
      await createNode(c, app.code, T.DataSourceModule, { parentCode: group.code });
      await createNode(c, app.code, T.ChatWorkflowModule);
      await disable((await createNode(c, app.code, T.CustomLinkModule)).code);
      await disable((await createNode(c, app.code, T.FormModule, { parentCode: group.code })).code);
      expect(await schemaOf(app.code)).toBeNull();
    });

    it('equal sort keys are broken by code as in the tree', async () => {
      // Sort keys only tie in rows written by hand; the codes are chosen so that a byte-wise comparison and the
      // tree's localeCompare disagree ('B' < 'a' bytewise).
      const app = await createApp(c);
      const edb = engineDb(t.database.db, admin.engineCode);
      const suffix = uniqueCode('');
      const upper = await createNode(c, app.code, T.FormModule, { code: `NB${suffix}` });
      const lower = await createNode(c, app.code, T.ReportModule, { code: `Na${suffix}` });
      await edb.updateTable('function_nodes').set({ sort_key: 0 }).where('code', 'in', [upper.code, lower.code]).execute();
      expect(await schemaOf(app.code)).toBe(lower.code);
      const group = await createNode(c, app.code, T.GroupModule, { code: `Grp${suffix}` });
      const inUpper = await createNode(c, app.code, T.FormModule, { code: `GB${suffix}`, parentCode: group.code });
      const inLower = await createNode(c, app.code, T.FormModule, { code: `Ga${suffix}`, parentCode: group.code });
      await edb.updateTable('function_nodes').set({ sort_key: 0 }).where('code', 'in', [inUpper.code, inLower.code]).execute();
      await edb.updateTable('function_nodes').set({ sort_key: -1 }).where('code', '=', group.code).execute();
      expect(await schemaOf(app.code)).toBe(inLower.code);
    });
  });

  it('reads the nodes of apps alike as rows or as JSON (PGlite takes JSON, PostgreSQL rows), copies in progress left out', async () => {
    const a = await createSampleApp(c);
    await createNode(c, a.app.code, T.CustomLinkModule, { displayName: '链接"引号\\', url: 'https://example.com/?q=1&r=中文' });
    await c.ok('POST', '/v1/functionnode/update', { code: a.form2.code, summary: '说明\n第二行', icon: 'i', iconColor: '#fff', state: 'Disabled' });
    const edb = engineDb(t.database.db, admin.engineCode);
    const copying = await createNode(c, a.app.code, T.FormModule);
    await edb.updateTable('function_nodes').set({ copy_job_id: 'job' }).where('code', '=', copying.code).execute();
    const sorted = (m: Map<string, { code: string }[]>) => [...m].sort(([x], [y]) => (x < y ? -1 : 1)).map(([app, nodes]) => [app, [...nodes].sort((x, y) => (x.code < y.code ? -1 : 1))]);
    const rows = await listNodesByApp(edb, 'all', 'rows');
    expect(sorted(await listNodesByApp(edb, 'all', 'json'))).toEqual(sorted(rows));
    expect(rows.get(a.app.code)!.map((n) => n.code)).not.toContain(copying.code);
    expect(rows.get(a.app.code)).toHaveLength(5);
    expect(sorted(await listNodesByApp(edb, [a.app.code], 'json'))).toEqual(sorted(await listNodesByApp(edb, [a.app.code], 'rows')));
    await edb.deleteFrom('function_nodes').where('code', '=', copying.code).execute();
  });

  it('feature list answers every node of the app, parents before children', async () => {
    const a = await createSampleApp(c);
    const res = await c.get('/v1/functionNode/app/feature/list', { appCode: a.app.code });
    expect(codesOf(res.list)).toEqual([a.group.code, a.form1.code, a.form2.code, a.report.code]);
  });

  it('children filters by node types and tells hasChild when asked', async () => {
    const a = await createSampleApp(c);
    const all = await c.post('/v1/functionnode/children', { parentCode: a.app.code, checkHasChild: true });
    expect(all.list.map((n: { code: string; hasChild: boolean }) => [n.code, n.hasChild])).toEqual([[a.group.code, true], [a.report.code, false]]);
    const reports = await c.post('/v1/functionnode/children', { parentCode: a.app.code, nodeTypes: [T.ReportModule] });
    expect(codesOf(reports.list)).toEqual([a.report.code]);
    expect(reports.list[0].hasChild).toBeUndefined();
    const inGroup = await c.post('/v1/functionnode/children', { parentCode: a.group.code, nodeTypes: [T.FormModule, T.WorkflowModule] });
    expect(codesOf(inGroup.list)).toEqual([a.form1.code, a.form2.code]);
  });

  it('finds nodes by keyword in name or code, by codes, and answers permissions by codes', async () => {
    const a = await createSampleApp(c);
    await c.ok('POST', '/v1/functionnode/update', { code: a.form2.code, displayName: `联系人${a.app.code}` });
    const byName = await c.post('/v1/functionnode/list/bykeyword', { keyword: a.app.code.toLowerCase() });
    expect(codesOf(byName.list)).toEqual([a.app.code, a.form2.code]);
    const typed = await c.post('/v1/functionnode/list/bykeyword', { keyword: a.app.code, nodeTypes: [T.FormModule] });
    expect(codesOf(typed.list)).toEqual([a.form2.code]);
    const byCodes = await c.post('/v1/functionnode/list/bycodes', { codes: [a.report.code, 'Missing1', a.form1.code] });
    expect(codesOf(byCodes.list)).toEqual([a.report.code, a.form1.code]);
    const auth = await c.post('/v1/functionnode/auth/bycodes', { codes: [a.report.code, 'Missing1'] });
    expect(auth.list).toEqual([{ code: a.report.code, permission: 'administrator' }, { code: 'Missing1', permission: 'none' }]);
  });

  it('answers hasdashboard and app status', async () => {
    const status = await c.get('/v1/functionnode/app/status');
    expect(status.hasApp).toBe(true);
    const app = await createApp(c);
    expect((await c.get('/v1/functionnode/app/status', { appCode: app.code })).app).toEqual({ code: app.code, appState: 'Normal', state: 'Normal', isAdmin: true });
    await createNode(c, app.code, T.DashBoardModule);
    expect((await c.get('/v1/functionnode/app/hasdashboard')).hasDashboard).toBe(true);
    expect((await c.raw('GET', '/v1/functionnode/app/status', { appCode: 'NoSuchApp' })).body).toMatchObject({ errorCode: 230001 });
  });
});

describe('changing nodes', () => {
  it('updates name, icon, colour, summary and state; an empty update is 777', async () => {
    const app = await createApp(c);
    const updated = await c.post('/v1/functionnode/update', { code: app.code, displayName: '新名称', icon: 'i2', iconColor: '#ff0000', summary: '说明', state: 'Disabled' });
    expect(updated).toMatchObject({ displayName: '新名称', icon: 'i2', iconColor: '#ff0000', summary: '说明', state: 'Disabled' });
    expect((await c.raw('POST', '/v1/functionnode/update', { code: app.code })).body).toMatchObject({ errorCode: 777 });
    expect((await c.raw('POST', '/v1/functionnode/update', { code: app.code, url: 'https://x.cn' })).body).toMatchObject({ errorCode: 777 });
  });

  it('removing an app removes all it contains, with grants and visits', async () => {
    const a = await createSampleApp(c);
    await c.post('/v1/workbench/visit', { code: a.form1.code });
    const res = await c.post('/v1/functionnode/remove', { code: a.app.code });
    expect(res.removed).toBe(5);
    const edb = engineDb(t.database.db, admin.engineCode);
    expect(await edb.selectFrom('function_nodes').select('code').where('app_code', '=', a.app.code).execute()).toEqual([]);
    expect(await edb.selectFrom('workbench_visits').select('node_code').where('node_code', '=', a.form1.code).execute()).toEqual([]);
    expect((await c.raw('POST', '/v1/functionNode/app/feature/list', {})).status).toBe(404);
    expect((await c.raw('GET', '/v1/functionNode/app/feature/list', { appCode: a.app.code })).body).toMatchObject({ errorCode: 230001 });
  });

  it('removing a group removes its modules; removing a module removes only it', async () => {
    const a = await createSampleApp(c);
    expect((await c.post('/v1/functionnode/remove', { code: a.report.code })).removed).toBe(1);
    expect((await c.post('/v1/functionnode/remove', { code: a.group.code })).removed).toBe(3);
    expect((await c.get('/v1/functionNode/app/feature/list', { appCode: a.app.code })).list).toEqual([]);
  });

  it('sorts apps after a given app or to the front', async () => {
    const x = await createApp(c);
    const y = await createApp(c);
    const z = await createApp(c);
    const order = async () => codesOf((await c.get('/v1/functionnode/app/list', { withChildren: 'false' })).list).filter((code: string) => [x.code, y.code, z.code].includes(code));
    expect(await order()).toEqual([x.code, y.code, z.code]);
    const put = (body: unknown) => putSort(t, admin, body);
    expect((await put({ code: z.code, preCode: '' })).successful).toBe(true);
    expect(await order()).toEqual([z.code, x.code, y.code]);
    expect((await put({ code: z.code, preCode: x.code })).successful).toBe(true);
    expect(await order()).toEqual([x.code, z.code, y.code]);
    expect((await put({ code: x.code })).successful).toBe(true);
    expect(await order()).toEqual([x.code, z.code, y.code]);
    const a = await createSampleApp(c);
    expect(await put({ code: x.code, preCode: a.form1.code })).toMatchObject({ successful: false, errorCode: 230009 });
    expect((await put({ code: a.form2.code, preCode: '' })).successful).toBe(true);
    expect(codesOf((await c.post('/v1/functionnode/children', { parentCode: a.group.code })).list)).toEqual([a.form2.code, a.form1.code]);
  });

  it('moves a module to a group or another app, and a group to another app with its modules', async () => {
    const a = await createSampleApp(c);
    const b = await createApp(c);
    const moved = await c.post('/v1/functionnode/move', { code: a.report.code, parentCode: a.group.code, preCode: '' });
    expect(moved).toMatchObject({ parentCode: a.group.code, appCode: a.app.code });
    expect(codesOf((await c.post('/v1/functionnode/children', { parentCode: a.group.code })).list)).toEqual([a.report.code, a.form1.code, a.form2.code]);
    const toB = await c.post('/v1/functionnode/move', { code: a.group.code, parentCode: b.code });
    expect(toB).toMatchObject({ parentCode: b.code, appCode: b.code });
    const bFeatures = await c.get('/v1/functionNode/app/feature/list', { appCode: b.code });
    expect(bFeatures.list.every((n: { appCode: string }) => n.appCode === b.code)).toBe(true);
    expect(codesOf(bFeatures.list)).toEqual([a.group.code, a.report.code, a.form1.code, a.form2.code]);
  });

  it('checks moves first: no app moves, no group in a group, no module under a module, nothing into itself', async () => {
    const a = await createSampleApp(c);
    const b = await createSampleApp(c);
    const cases: [unknown, string][] = [
      [{ code: a.app.code, parentCode: b.app.code }, 'appCannotMove'],
      [{ code: a.group.code, parentCode: b.group.code }, 'groupsOneLevel'],
      [{ code: a.group.code, parentCode: a.group.code }, 'intoItself'],
      [{ code: a.report.code, parentCode: a.form1.code }, 'parentNotContainer'],
    ];
    for (const [body, reason] of cases) {
      expect(await c.post('/v1/functionNode/checkmove', body)).toMatchObject({ allowed: false, errorCode: 230004 });
      const res = await c.raw('POST', '/v1/functionnode/move', body);
      expect(res.body, reason).toMatchObject({ successful: false, errorCode: 230004, detail: { reason } });
    }
    expect(await c.post('/v1/functionNode/checkmove', { code: a.form1.code, parentCode: b.group.code })).toEqual({ allowed: true });
    expect((await c.raw('POST', '/v1/functionNode/checkmove', { code: 'NoSuch1', parentCode: b.group.code })).body).toMatchObject({ errorCode: 230001 });
  });

  it('checks copies first: only apps', async () => {
    const a = await createSampleApp(c);
    expect(await c.post('/v1/functionNode/checkcopy', { code: a.app.code })).toEqual({ allowed: true });
    expect(await c.post('/v1/functionNode/checkcopy', { code: a.form1.code })).toMatchObject({ allowed: false, errorCode: 230006 });
    expect((await c.raw('POST', '/v1/functionnode/copy', { code: a.form1.code })).body).toMatchObject({ errorCode: 230006 });
  });
});

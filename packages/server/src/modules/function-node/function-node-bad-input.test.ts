import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { createSampleApp, nodeClient } from '../../../test/node-helpers.ts';

// Every call of the module answers bad input with 777, names the fields at fault, and writes nothing.

let t: TestApp;
let person: Awaited<ReturnType<typeof registerPerson>>;
let app = '';
beforeAll(async () => {
  t = await createTestApp();
  person = await registerPerson(t.app);
  app = (await createSampleApp(nodeClient(t.app, person))).app.code;
});
afterAll(() => t.close());

async function snapshot() {
  const out: Record<string, string> = {};
  for (const table of ['function_nodes', 'node_permissions', 'workbench_configs', 'workbench_visits']) {
    const r = await sql<{ h: string | null; n: number }>`select count(*)::int as n, md5(string_agg(t::text, ',' order by t::text)) as h from ${sql.table(`e_${person.engineCode}.${table}`)} t`.execute(t.database.db);
    out[table] = `${r.rows[0].n}:${r.rows[0].h}`;
  }
  const jobs = await sql<{ n: number }>`select count(*)::int as n from platform.jobs`.execute(t.database.db);
  out.jobs = String(jobs.rows[0].n);
  return out;
}

type Case = { name: string; method: string; url: string; body?: unknown; query?: Record<string, string>; paths: string[] };
const cases = (): Case[] => [
  { name: 'app list: withChildren not a boolean', method: 'GET', url: '/v1/functionnode/app/list', query: { withChildren: 'yes' }, paths: ['withChildren'] },
  { name: 'status: bad appCode', method: 'GET', url: '/v1/functionnode/app/status', query: { appCode: '12' }, paths: ['appCode'] },
  { name: 'feature list: no appCode', method: 'GET', url: '/v1/functionNode/app/feature/list', query: {}, paths: ['appCode'] },
  { name: 'create: 1-char name', method: 'POST', url: '/v1/functionnode', body: { displayName: '甲', nodeType: 190 }, paths: ['displayName'] },
  { name: 'create: unknown type', method: 'POST', url: '/v1/functionnode', body: { displayName: '甲乙', nodeType: 999 }, paths: ['nodeType'] },
  { name: 'create: all-digit code', method: 'POST', url: '/v1/functionnode', body: { code: '2024', displayName: '甲乙', nodeType: 190 }, paths: ['code'] },
  { name: 'create: module without app', method: 'POST', url: '/v1/functionnode', body: { displayName: '甲乙', nodeType: 200 }, paths: ['appCode'] },
  { name: 'create: app with a parent', method: 'POST', url: '/v1/functionnode', body: { displayName: '甲乙', nodeType: 190, parentCode: app }, paths: ['parentCode'] },
  { name: 'create: link without url', method: 'POST', url: '/v1/functionnode', body: { appCode: app, displayName: '甲乙', nodeType: 280 }, paths: ['url'] },
  { name: 'create: extra field', method: 'POST', url: '/v1/functionnode', body: { displayName: '甲乙', nodeType: 190, owner: 'x' }, paths: [''] },
  { name: 'update: nothing to change', method: 'POST', url: '/v1/functionnode/update', body: { code: app }, paths: [''] },
  { name: 'update: 33-char name', method: 'POST', url: '/v1/functionnode/update', body: { code: app, displayName: '名'.repeat(33) }, paths: ['displayName'] },
  { name: 'update: unknown state', method: 'POST', url: '/v1/functionnode/update', body: { code: app, state: 'Gone' }, paths: ['state'] },
  { name: 'remove: no code', method: 'POST', url: '/v1/functionnode/remove', body: {}, paths: ['code'] },
  { name: 'sort: bad preCode', method: 'PUT', url: '/v1/functionnode/sort', body: { code: app, preCode: 'a-b' }, paths: ['preCode'] },
  { name: 'copy: no code', method: 'POST', url: '/v1/functionnode/copy', body: { code: '' }, paths: ['code'] },
  { name: 'copy progress: bad actionId', method: 'GET', url: '/v1/functionnode/copy/progress', query: { actionId: 'x' }, paths: ['actionId'] },
  { name: 'copy retry: bad actionId', method: 'POST', url: '/v1/functionnode/copy/retry', body: { actionId: 1 }, paths: ['actionId'] },
  { name: 'move: no parent', method: 'POST', url: '/v1/functionnode/move', body: { code: app }, paths: ['parentCode'] },
  { name: 'checkmove: no parent', method: 'POST', url: '/v1/functionNode/checkmove', body: { code: app }, paths: ['parentCode'] },
  { name: 'checkcopy: bad code', method: 'POST', url: '/v1/functionNode/checkcopy', body: { code: '销售' }, paths: ['code'] },
  { name: 'children: bad node type', method: 'POST', url: '/v1/functionnode/children', body: { parentCode: app, nodeTypes: [1] }, paths: ['nodeTypes.0'] },
  { name: 'children: checkHasChild not boolean', method: 'POST', url: '/v1/functionnode/children', body: { parentCode: app, checkHasChild: 'yes' }, paths: ['checkHasChild'] },
  { name: 'bykeyword: empty keyword', method: 'POST', url: '/v1/functionnode/list/bykeyword', body: { keyword: '  ' }, paths: ['keyword'] },
  { name: 'bycodes: empty list', method: 'POST', url: '/v1/functionnode/list/bycodes', body: { codes: [] }, paths: ['codes'] },
  { name: 'bycodes: 501 codes', method: 'POST', url: '/v1/functionnode/list/bycodes', body: { codes: Array.from({ length: 501 }, (_, i) => `c${i}`) }, paths: ['codes'] },
  { name: 'auth/bycodes: not a list', method: 'POST', url: '/v1/functionnode/auth/bycodes', body: { codes: 'abc' }, paths: ['codes'] },
  { name: 'auth/set: unknown permission', method: 'POST', url: '/v1/functionnode/auth/set', body: { code: app, unitId: 'u1', permission: 'owner' }, paths: ['permission'] },
  { name: 'auth/list: no code', method: 'POST', url: '/v1/functionnode/auth/list', body: {}, paths: ['code'] },
  { name: 'visit: bad code', method: 'POST', url: '/v1/workbench/visit', body: { code: '' }, paths: ['code'] },
  { name: 'recent: limit 0', method: 'GET', url: '/v1/workbench/recentactivity', query: { limit: '0' }, paths: ['limit'] },
  { name: 'saveconfig: components missing', method: 'POST', url: '/v1/workbench/saveconfig', body: {}, paths: ['components'] },
];

describe('bad input on every function-node and workbench call', () => {
  it('answers 777 with detail.issues and writes nothing', async () => {
    for (const c of cases()) {
      const before = await snapshot();
      const res = await call(t.app, c.method, c.url, { body: c.body, query: c.query, token: person.token, engineCode: person.engineCode });
      expect(res.status, c.name).toBe(200);
      expect(res.body, c.name).toMatchObject({ successful: false, errorCode: 777 });
      const paths = res.body.detail.issues.map((i: { path: string }) => i.path);
      for (const p of c.paths) if (p) expect(paths, c.name).toContain(p);
      expect(await snapshot(), c.name).toEqual(before);
    }
  });

  it('refuses every call without a token (401)', async () => {
    const valid: [string, string, unknown?][] = [
      ['GET', '/v1/functionnode/app/list'], ['GET', '/v1/functionnode/app/hasdashboard'], ['GET', '/v1/functionnode/app/subadminapplist'],
      ['GET', '/v1/functionnode/app/hascode/list'], ['GET', '/v1/functionnode/app/status'], ['GET', `/v1/functionNode/app/feature/list?appCode=${app}`],
      ['POST', '/v1/functionnode', { displayName: '甲乙', nodeType: 190 }], ['POST', '/v1/functionnode/update', { code: app, displayName: '甲乙' }],
      ['POST', '/v1/functionnode/remove', { code: app }], ['PUT', '/v1/functionnode/sort', { code: app }], ['POST', '/v1/functionnode/copy', { code: app }],
      ['POST', '/v1/functionnode/move', { code: app, parentCode: app }], ['POST', '/v1/functionnode/children', { parentCode: app }],
      ['POST', '/v1/functionnode/list/bykeyword', { keyword: 'a' }], ['POST', '/v1/functionnode/list/bycodes', { codes: [app] }],
      ['POST', '/v1/functionnode/auth/bycodes', { codes: [app] }], ['POST', '/v1/functionNode/checkmove', { code: app, parentCode: app }],
      ['POST', '/v1/functionNode/checkcopy', { code: app }], ['GET', '/v1/workbench/config'], ['GET', '/v1/workbench/config/default'],
      ['GET', '/v1/workbench/recentactivity'], ['POST', '/v1/workbench/saveconfig', { components: [] }], ['POST', '/v1/workbench/visit', { code: app }],
    ];
    for (const [method, url, body] of valid) {
      const res = await call(t.app, method, url, { body });
      expect(res.status, url).toBe(401);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createSampleApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';

let t: TestApp;
let admin: Person;
let a: OrgClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
});
afterAll(() => t.close());

describe('workbench config', () => {
  it('answers the default until the user saves one; each user has their own', async () => {
    const def = await a.get('/v1/workbench/config/default');
    expect(def.isDefault).toBe(true);
    expect(def.config.components.map((c: { type: string }) => c.type)).toContain('recentActivity');
    expect(await a.get('/v1/workbench/config')).toEqual(def);
    const mine = { components: [{ id: 'apps', type: 'appList', visible: true, width: 2 }, { id: 'r', type: 'recentActivity', title: '最近', visible: false, width: 4 }] };
    expect(await a.post('/v1/workbench/saveconfig', mine)).toEqual({ config: mine, isDefault: false });
    expect(await a.get('/v1/workbench/config')).toEqual({ config: mine, isDefault: false });
    const other = await addMember(t, admin);
    expect((await nodeClient(t.app, other).get('/v1/workbench/config')).isDefault).toBe(true);
    const saved2 = await a.post('/v1/workbench/saveconfig', { components: [{ id: 'x', type: 'todo' }] });
    expect(saved2.config.components).toEqual([{ id: 'x', type: 'todo', visible: true, width: 4 }]);
  });

  it('refuses a bad shape with 777 and keeps the saved config', async () => {
    const before = await a.get('/v1/workbench/config');
    for (const body of [
      { components: [{ id: 'a', type: 'nope' }] },
      { components: [{ id: 'a', type: 'todo' }, { id: 'a', type: 'messages' }] },
      { components: Array.from({ length: 31 }, (_, i) => ({ id: `c${i}`, type: 'todo' })) },
      { components: [{ id: 'a', type: 'todo', width: 5 }] },
      { components: [], extra: 1 },
      {},
    ]) {
      expect((await a.raw('POST', '/v1/workbench/saveconfig', body)).body).toMatchObject({ successful: false, errorCode: 777 });
    }
    expect(await a.get('/v1/workbench/config')).toEqual(before);
  });
});

describe('recent activity', () => {
  it('lists what the user opened, newest first, with counts; only what they may still open', async () => {
    const s = await createSampleApp(a);
    await a.post('/v1/workbench/visit', { code: s.form1.code });
    await a.post('/v1/workbench/visit', { code: s.app.code });
    await a.post('/v1/workbench/visit', { code: s.form1.code });
    const recent = await a.get('/v1/workbench/recentactivity');
    expect(recent.list.map((r: { node: { code: string }; visitCount: number }) => [r.node.code, r.visitCount])).toEqual([[s.form1.code, 2], [s.app.code, 1]]);
    expect((await a.get('/v1/workbench/recentactivity', { limit: '1' })).list).toHaveLength(1);

    const m = await addMember(t, admin, { name: '访问者' });
    const mc = nodeClient(t.app, m);
    await grant(a, s.app.code, m.userId, 'access');
    await mc.post('/v1/workbench/visit', { code: s.report.code });
    expect((await mc.get('/v1/workbench/recentactivity')).list.map((r: { node: { code: string } }) => r.node.code)).toEqual([s.report.code]);
    await grant(a, s.app.code, m.userId, 'none');
    expect((await mc.get('/v1/workbench/recentactivity')).list).toEqual([]);
    expect((await mc.raw('POST', '/v1/workbench/visit', { code: s.report.code })).body).toMatchObject({ errorCode: 230001 });
    expect((await a.raw('GET', '/v1/workbench/recentactivity', { limit: '51' })).body).toMatchObject({ errorCode: 777 });
  });
});

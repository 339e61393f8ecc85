// test-databases: postgres — two apps on one PostgreSQL stand for two server processes: their claims race for real
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { createApp, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { openDatabase } from '../../db/database.ts';

// Issue 21's must-show: each trigger fires exactly once per event with two server processes on one PostgreSQL — both
// runners and both schedulers go at the same events at the same time; every event is run once.

let now = Date.parse('2026-12-01T00:00:00Z');
let one: TestApp, two: TestApp, a: OrgClient, appCode: string;
beforeAll(async () => {
  one = await createTestApp({ clock: () => new Date(now) });
  // Without a PostgreSQL (TEST_DATABASE_URL unset) the two apps share PGlite's one database instead.
  two = await createTestApp({ clock: () => new Date(now), database: one.database.url ? await openDatabase({ databaseUrl: one.database.url }) : one.database });
  const admin = await registerPerson(one.app);
  a = nodeClient(one.app, admin);
  appCode = (await createApp(a)).code;
});
afterAll(async () => {
  await two?.close();
  await one?.close();
});

/** Both processes' runners claim until neither finds work. */
async function drainBoth(): Promise<void> {
  for (;;) {
    const [x, y] = await Promise.all([one.app.extras.jobs.runOnce(), two.app.extras.jobs.runOnce()]);
    if (!x && !y) return;
  }
}
const field = (code: string) => ({ type: 'field', code });
const rows = async (schemaCode: string) => ((await a.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 200 })).list as Record<string, unknown>[]);

describe('automations with two server processes', () => {
  it('record events, timed and date triggers and webhooks each run once', async () => {
    const order = (await createForm(a, appCode, { displayName: '订单' })).code as string;
    const trace = (await createForm(a, appCode, { displayName: '记录' })).code as string;
    await publish(a, order, definition([{ type: 'textBox', code: 'Customer' }, { type: 'dateTime', code: 'DueDate' }]));
    await publish(a, trace, definition([{ type: 'textBox', code: 'Kind' }, { type: 'textBox', code: 'Ref' }]));
    const insert = (kind: string) => [{ id: 's', type: 'insert', targetSchemaCode: trace, mappings: [{ field: 'Kind', value: { type: 'constant', value: kind } }, { field: 'Ref', value: field('ObjectId') }] }];
    const save = async (name: string, trigger: unknown) => (await a.post('/v1/automatic/save', { schemaCode: order, automation: { name, trigger, steps: insert(name) } })).automation;
    await save('effective', { type: 'effective' });
    await save('created', { type: 'created' });
    await save('timing', { type: 'timing', cycle: 'minutely', start: new Date(now + 60_000).toISOString() });
    await save('date', { type: 'date', field: 'DueDate', offsetDays: 0, time: '08:01' });
    const hook = await save('webhook', { type: 'webhook' });

    for (let i = 0; i < 10; i++) await a.post('/v1/form/action/execute', { schemaCode: order, actionCode: 'Submit', values: { Customer: `客户${i}`, DueDate: '2026-12-01 12:00:00' } });
    await Promise.all([1, 2, 3].map(() => one.app.inject({ method: 'POST', url: hook.webhookUrl, payload: {} })));
    // The timing trigger's first minute (00:01Z) and the date trigger's moment (08:01 China = 00:01Z) both pass.
    now += 90_000;
    await Promise.all([one.app.extras.scheduler.tick(), two.app.extras.scheduler.tick(), one.app.extras.scheduler.tick(), two.app.extras.scheduler.tick()]);
    await drainBoth();

    const counts: Record<string, number> = {};
    for (const r of await rows(trace)) counts[String(r.Kind)] = (counts[String(r.Kind)] ?? 0) + 1;
    expect(counts).toEqual({ effective: 10, created: 10, timing: 1, date: 10, webhook: 3 });
  });
});

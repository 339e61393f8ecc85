// test-databases: postgres — two apps on one PostgreSQL stand for two server processes: their claims race for real
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { createApp, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { openDatabase } from '../../db/database.ts';

// Issue 21's must-show: each trigger fires exactly once per event with two server processes on one PostgreSQL — both
// runners and both schedulers go at the same events at the same time; every event is run once.

let now = Date.parse('2026-12-01T00:00:00Z');
let one: TestApp, two: TestApp, a: OrgClient, b: OrgClient, appCode: string;
beforeAll(async () => {
  one = await createTestApp({ clock: () => new Date(now) });
  // Without a PostgreSQL (TEST_DATABASE_URL unset) the two apps share PGlite's one database instead.
  two = await createTestApp({ clock: () => new Date(now), database: one.database.url ? await openDatabase({ databaseUrl: one.database.url }) : one.database });
  const admin = await registerPerson(one.app);
  a = nodeClient(one.app, admin);
  // The same administrator through the second process.
  b = nodeClient(two.app, admin);
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
  it('every trigger type runs once per event: record events, timed and date triggers, webhooks, buttons and custom calls', async () => {
    const order = (await createForm(a, appCode, { displayName: '订单' })).code as string;
    const trace = (await createForm(a, appCode, { displayName: '记录' })).code as string;
    await publish(a, order, definition([{ type: 'textBox', code: 'Customer' }, { type: 'dateTime', code: 'DueDate' }]));
    await publish(a, trace, definition([{ type: 'textBox', code: 'Kind' }, { type: 'textBox', code: 'Ref' }]));
    const insert = (kind: string) => [{ id: 's', type: 'insert', targetSchemaCode: trace, mappings: [{ field: 'Kind', value: { type: 'constant', value: kind } }, { field: 'Ref', value: field('ObjectId') }] }];
    const save = async (name: string, trigger: unknown) => (await a.post('/v1/automatic/save', { schemaCode: order, automation: { name, trigger, steps: insert(name) } })).automation;
    await save('effective', { type: 'effective' });
    await save('created', { type: 'created' });
    await save('submitted', { type: 'submitted' });
    await save('updated', { type: 'updated' });
    await save('effectiveOrUpdated', { type: 'effectiveOrUpdated' });
    await save('changing', { type: 'changing', field: 'Customer', to: 'VIP' });
    await save('deleted', { type: 'deleted' });
    await save('voided', { type: 'voided' });
    const button = await save('button', { type: 'button', label: '登记', locations: ['form'] });
    const custom = await save('custom', { type: 'custom' });
    await save('timing', { type: 'timing', cycle: 'minutely', start: new Date(now + 60_000).toISOString() });
    await save('date', { type: 'date', field: 'DueDate', offsetDays: 0, time: '08:01' });
    const hook = await save('webhook', { type: 'webhook' });

    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await a.post('/v1/form/action/execute', { schemaCode: order, actionCode: 'Submit', values: { Customer: `客户${i}`, DueDate: '2026-12-01 12:00:00' } })).objectId);
    await drainBoth();
    // Four effective records edited (updated, effective-or-updated, changing to VIP), two removed (deleted, voided).
    for (const id of ids.slice(0, 4)) await a.post('/v1/form/action/execute', { schemaCode: order, actionCode: 'Save', objectId: id, values: { Customer: 'VIP' } });
    for (const id of ids.slice(8)) await a.post('/v1/form/action/execute', { schemaCode: order, actionCode: 'Remove', objectId: id });
    // Three webhook calls, a press of the button through each process, one custom call.
    await Promise.all([1, 2, 3].map(() => one.app.inject({ method: 'POST', url: hook.webhookUrl, payload: {} })));
    await Promise.all([a, b].map((client) => client.post('/v1/smartaction/run', { schemaCode: order, actionCode: button.id, objectIds: [ids[0]] })));
    await b.post('/v1/bizdata/action/automation', { schemaCode: order, automationId: custom.id, objectIds: [ids[1]] });
    // The timing trigger's first minute (00:01Z) and the date trigger's moment (08:01 China = 00:01Z) both pass.
    now += 90_000;
    await Promise.all([one.app.extras.scheduler.tick(), two.app.extras.scheduler.tick(), one.app.extras.scheduler.tick(), two.app.extras.scheduler.tick()]);
    await drainBoth();

    const counts: Record<string, number> = {};
    for (const r of await rows(trace)) counts[String(r.Kind)] = (counts[String(r.Kind)] ?? 0) + 1;
    expect(counts).toEqual({
      effective: 10, created: 10, submitted: 10, effectiveOrUpdated: 14, updated: 4, changing: 4, deleted: 2, voided: 2,
      timing: 1, date: 8, webhook: 3, button: 2, custom: 1,
    });
    for (const state of ['Failed', 'Skipped', 'Stopped', 'Waiting']) expect((await a.post('/v1/automatic/logs', { schemaCode: order, state })).total, state).toBe(0);
  });

  it('a timed trigger that fell due while no process ran runs once when a new process starts', async () => {
    const form = (await createForm(a, appCode, { displayName: '日报' })).code as string;
    await publish(a, form, definition([{ type: 'textBox', code: 'Note' }]));
    const start = new Date(now + 3_600_000).toISOString();
    await a.post('/v1/automatic/save', { schemaCode: form, automation: { name: '每日汇总', trigger: { type: 'timing', cycle: 'daily', start }, steps: [{ id: 's', type: 'insert', targetSchemaCode: form, mappings: [{ field: 'Note', value: { type: 'constant', value: '汇总' } }] }] } });
    // Both processes stop; three days pass; a new process starts on the same database and ticks with the old one.
    await two.close();
    now += 3 * 86_400_000;
    two = await createTestApp({ clock: () => new Date(now), database: one.database.url ? await openDatabase({ databaseUrl: one.database.url }) : one.database });
    await Promise.all([two.app.extras.scheduler.tick(), one.app.extras.scheduler.tick()]);
    await drainBoth();
    expect((await rows(form)).map((r) => r.Note)).toEqual(['汇总']);
    const listed = (await a.post('/v1/automatic/list', { schemaCode: form })).automations[0];
    expect(new Date(listed.nextRunTime).getTime()).toBeGreaterThan(now);
  });
});

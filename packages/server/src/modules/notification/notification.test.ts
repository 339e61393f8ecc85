import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, createApp, grant, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { engineDb, openDatabase } from '../../db/database.ts';
import { WriteBatch } from '../../db/write-batch.ts';
import { addNotices } from './notify.ts';
import { createLiveHub } from './live-hub.ts';
import { ChannelError, type ChannelAdapter, type OutgoingMessage } from './channels/channel.ts';

// test-databases: both — NOTIFY and LISTEN, across server processes on PostgreSQL (docs/testing.md "Runs on both databases").

// The notification service and message center (issue 20; docs/decisions/0038) on PGlite and PostgreSQL: a workflow
// action's to-do and its result become messages; unread counts per category, the list, marking read (only one's own);
// the live stream carries the message and the to-do change and replays what a reconnecting browser missed; deliveries
// over an outside channel follow the preferences, are retried, and show as failed in the administrator's log.

let t: TestApp, a: OrgClient, formCode: string, baseUrl: string;
type P = { id: string; c: OrgClient; token: string; engineCode: string };
let admin: P, approver: P, other: P;

// An outside channel that records what it is asked to send and fails as told.
const sent: OutgoingMessage[] = [];
let failures: (ChannelError | null)[] = [];
const smsFake: ChannelAdapter = {
  kind: 'sms',
  async send(_settings, message) {
    const failure = failures.shift();
    if (failure) throw failure;
    sent.push(message);
    return `sent to ${message.recipient.mobile}`;
  },
};

const count = async (p: P) => (await p.c.post('/v1/toolkit/internalmessage/count')) as { unread: number; categories: { category: string; unread: number }[] };
const list = async (p: P, body: Record<string, unknown> = {}) => (await p.c.post('/v1/toolkit/internalmessage/list', body)) as { list: any[]; total: number; hasMore: boolean };

async function submitRecord(Title: string) {
  const objectId = (await a.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', values: { Title } })).objectId;
  const instanceId = (await a.post('/v1/workflow/instance/start', { schemaCode: formCode, objectId, submit: true })).instanceId as string;
  return { objectId, instanceId };
}
const itemOf = async (p: P, instanceId: string) => (await p.c.get('/v1/workflow/instance/info', { instanceId })).myItems[0].workItemId as string;

/** Reads a live stream's events until `until` says enough (or the stream ends). */
async function readEvents(p: P, until: (events: { event: string; id?: string; data: any }[]) => boolean, lastEventId?: string, server = baseUrl) {
  const controller = new AbortController();
  const res = await fetch(`${server}/v1/toolkit/live`, {
    headers: { authorization: `Bearer ${p.token}`, enginecode: p.engineCode, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: controller.signal,
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: { event: string; id?: string; data: any }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const ready = { resolve: () => {} };
  const opened = new Promise<void>((resolve) => (ready.resolve = resolve));
  const done = (async () => {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const fields = Object.fromEntries(block.split('\n').filter((l) => l && !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
        if (!fields.event) continue;
        events.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? '{}') });
        if (fields.event === 'ready') ready.resolve();
        if (until(events)) {
          controller.abort();
          return events;
        }
      }
    }
    return events;
  })().catch((error) => (controller.signal.aborted ? events : Promise.reject(error)));
  return { opened, done, close: () => controller.abort() };
}

beforeAll(async () => {
  t = await createTestApp({ deliveries: { adapters: new Map([['sms', smsFake]]), settingsOf: async () => ({}), backoffMs: () => 0, publicUrl: 'https://tritium.example/' } });
  const person = await registerPerson(t.app, { userName: '管理员' });
  a = nodeClient(t.app, person);
  admin = { id: '', c: a, token: person.token, engineCode: person.engineCode };
  const make = async (name: string): Promise<P> => {
    const p = await addMember(t, person, { name });
    return { id: p.userId, c: nodeClient(t.app, p), token: p.token, engineCode: p.engineCode };
  };
  approver = await make('审批人');
  const stranger = await registerPerson(t.app, { userName: '别家' });
  other = { id: '', c: nodeClient(t.app, stranger), token: stranger.token, engineCode: stranger.engineCode };
  const appCode = (await createApp(a)).code;
  formCode = (await createForm(a, appCode, { displayName: '报销单' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, formCode, definition([{ type: 'textBox', code: 'Title' }], { displayName: '报销单', nameSchema: '{Title}' }));
  await grant(a, formCode, approver.id, 'access');
  const S = { type: 'Start', code: 'Start', name: '发起' };
  const A = { type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'users', ids: [approver.id] }] } };
  const E = { type: 'End', code: 'End', name: '结束' };
  await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: { activities: [S, A, E], routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }] } });
  await a.post('/v1/workflow/template/publish', { schemaCode: formCode });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

describe('message center', () => {
  it('a to-do becomes a workflow message: counted, listed, opened, marked read; the result reaches the originator', async () => {
    const { objectId, instanceId } = await submitRecord('差旅费');
    expect(await count(approver)).toEqual({ unread: 1, categories: [{ category: 'workflow', unread: 1 }] });
    const [message] = (await list(approver)).list;
    expect(message).toMatchObject({ category: 'workflow', title: '待办：差旅费', state: 'unread', link: { schemaCode: formCode, objectId, instanceId } });
    expect(message.link.workItemId).toBe(await itemOf(approver, instanceId));

    // Another engine's user cannot mark it, nor see it.
    const foreign = await other.c.raw('POST', '/v1/toolkit/internalmessage/read', { messageIds: [message.messageId] });
    expect(foreign.body).toMatchObject({ successful: false, errorCode: 340101 });
    expect((await list(other)).total).toBe(0);

    await approver.c.post('/v1/workflow/instance/submit', { workItemId: await itemOf(approver, instanceId) });
    expect((await list(admin, { category: 'workflow' })).list[0]).toMatchObject({ title: '流程已通过：差旅费', senderName: '审批人' });
    // The to-do is handled: its message is settled, so the bell no longer counts it (docs/decisions/0111).
    expect((await count(approver)).unread).toBe(0);
    expect((await list(approver)).list.find((m) => m.messageId === message.messageId)).toMatchObject({ state: 'read' });

    expect(await approver.c.post('/v1/toolkit/internalmessage/read', { messageIds: [message.messageId] })).toEqual({ updated: 1 });
    expect((await count(approver)).unread).toBe(0);
    expect((await list(approver, { state: 'read' })).list.map((m) => m.messageId)).toEqual([message.messageId]);
    expect((await list(approver, { state: 'unread' })).total).toBe(0);
  });

  it('marks all read, by category; refuses bad input with catalogue errors', async () => {
    await submitRecord('办公用品');
    await submitRecord('会议室');
    expect((await count(approver)).unread).toBe(2);
    expect(await approver.c.post('/v1/toolkit/internalmessage/read', { all: true, category: 'comment' })).toEqual({ updated: 0 });
    expect(await approver.c.post('/v1/toolkit/internalmessage/read', { all: true })).toEqual({ updated: 2 });
    for (const body of [{}, { messageIds: [] }, { messageIds: ['x'] }, { all: true, messageIds: ['00000000-0000-4000-8000-000000000000'] }, { all: 'yes' }]) {
      const res = await approver.c.raw('POST', '/v1/toolkit/internalmessage/read', body);
      expect(res.status).toBeLessThan(500);
      expect(res.body.successful).toBe(false);
    }
    for (const body of [{ state: 'gone' }, { pageSize: 1000 }, { category: 'x' }, { pageIndex: -1 }]) {
      const res = await approver.c.raw('POST', '/v1/toolkit/internalmessage/list', body);
      expect(res.status).toBeLessThan(500);
      expect(res.body.successful).toBe(false);
    }
    const page = await list(approver, { pageIndex: 1, pageSize: 2 });
    expect(page.list).toHaveLength(1);
    expect(page).toMatchObject({ total: 3, hasMore: false });
  });
});

describe('live stream', () => {
  it('carries the new message and the to-do change to the approver; replays what a reconnecting browser missed', async () => {
    const stream = await readEvents(approver, (events) => events.some((e) => e.event === 'message') && events.some((e) => e.event === 'todos'));
    await stream.opened;
    await submitRecord('培训费');
    const events = await stream.done;
    const message = events.find((e) => e.event === 'message')!;
    expect(message.data).toMatchObject({ category: 'workflow', title: '待办：培训费' });
    expect(Number(message.id)).toBe(message.data.seq);

    // Two messages while away; the reconnect with the last id it saw gets both, in order, before anything else.
    await submitRecord('打车费');
    await submitRecord('餐费');
    const again = await readEvents(approver, (events) => events.some((e) => e.event === 'ready'), message.id);
    const replayed = (await again.done).filter((e) => e.event === 'message').map((e) => e.data.title);
    expect(replayed).toEqual(['待办：打车费', '待办：餐费']);
  });

  // Several server processes on one PostgreSQL: the browser's stream is held by the second, the action runs on the
  // first; only the database (NOTIFY on one connection, LISTEN on the other process's own) joins them.
  it.runIf(process.env.TEST_DB_KIND === 'postgres')('reaches a browser connected to another server process on the same database', async () => {
    const second = await createTestApp({ database: await openDatabase({ databaseUrl: t.database.url! }) });
    try {
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const stream = await readEvents(approver, (events) => events.some((e) => e.event === 'message') && events.some((e) => e.event === 'todos'), undefined, `http://127.0.0.1:${(second.app.server.address() as AddressInfo).port}`);
      await stream.opened;
      await submitRecord('资料费');
      const events = await stream.done;
      expect(events.find((e) => e.event === 'message')?.data).toMatchObject({ title: '待办：资料费' });
    } finally {
      await second.close();
    }
  });

  // Its LISTEN connects in the background (docs/decisions/0027): a stream opened before it is in place would miss what
  // is sent meanwhile, so the stream waits for it; a process that cannot hear at all refuses with 100050.
  it.runIf(process.env.TEST_DB_KIND === 'postgres')('opens a stream only once its process hears the events; refuses with 100050 when it cannot', async () => {
    const database = await openDatabase({ databaseUrl: t.database.url! });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Asked first: the LISTEN cannot be set up (its connection closed); then: in place once the gate opens.
    let asked = 0;
    const second = await createTestApp({
      database: {
        ...database,
        listen: async (channel, onPayload, onGap) => {
          const listening = await database.listen(channel, onPayload, onGap);
          return { ...listening, ready: () => (asked++ === 0 ? Promise.reject(new Error('closed')) : gate.then(() => listening.ready())) };
        },
      },
    });
    try {
      const headers = { authorization: `Bearer ${approver.token}`, enginecode: approver.engineCode };
      const refused = await second.app.inject({ method: 'GET', url: '/v1/toolkit/live', headers });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ successful: false, errorCode: 100050 });
      expect(second.app.extras.live.size()).toBe(0);

      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const stream = readEvents(approver, (events) => events.some((e) => e.event === 'message'), undefined, `http://127.0.0.1:${(second.app.server.address() as AddressInfo).port}`);
      await expect.poll(() => asked).toBe(2);
      expect(second.app.extras.live.size()).toBe(0);
      open();
      const opened = await stream;
      await opened.opened;
      await submitRecord('邮寄费');
      expect((await opened.done).find((e) => e.event === 'message')?.data).toMatchObject({ title: '待办：邮寄费' });
    } finally {
      await second.close();
    }
  });

  // A LISTEN lost and set up again heard nothing in between: the process ends its streams, and each browser, opening
  // its stream again with the last id it saw, is sent what it missed from the stored messages.
  it.runIf(process.env.TEST_DB_KIND === 'postgres')('ends its streams when its LISTEN was lost and is back; the reopened stream replays what was missed', async () => {
    const before = (await list(approver)).list[0].seq as number;
    const stream = await readEvents(approver, () => false);
    await stream.opened;
    await t.database.db.executeQuery(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'tritium-listen-tritium_live'`.compile(t.database.db));
    // Ended by the process once its LISTEN is back, not by the reader.
    expect((await stream.done).map((e) => e.event)).toEqual(['ready']);
    await submitRecord('快递费');
    const again = await readEvents(approver, (events) => events.some((e) => e.event === 'ready'), String(before));
    expect((await again.done).filter((e) => e.event === 'message').map((e) => e.data.title)).toEqual(['待办：快递费']);
  });

  // A notice written with an action's own statement (docs/decisions/0101): the database forms the live events from
  // the stored rows. 300 receivers of one title are ~12 kB of ids, over NOTIFY's 8,000 bytes: they go in several.
  it('a notice to 300 people inside an action’s write statement reaches each, its receivers split over several NOTIFYs', async () => {
    const stream = await readEvents(approver, (events) => events.some((e) => e.event === 'message' && e.data.title === '公告：三百人'));
    await stream.opened;
    const edb = engineDb(t.database.db, approver.engineCode);
    const receivers = [...Array.from({ length: 299 }, () => randomUUID()), approver.id];
    const notified: number[] = [];
    await t.database.db.transaction().execute(async (trx) => {
      const batch = new WriteBatch(engineDb(trx, approver.engineCode));
      addNotices(batch, engineDb(trx, approver.engineCode), approver.engineCode, receivers.map((receiver) => ({ receiver, notice: { category: 'workflow', title: '公告：三百人' } })));
      batch.select(() => sql<number>`1`.as('probe'), async (row) => {
        notified.push(...Object.entries(row).filter(([k]) => k.startsWith('notified')).map(([, v]) => Number(v)));
      });
      await batch.flush();
    });
    // PGlite counts them in the statement's row; PostgreSQL sends them behind the COMMIT (docs/decisions/0104), where
    // a single NOTIFY of 300 receivers would fail ("payload string too long") and the event below never come.
    if (t.database.kind === 'pglite') {
      expect(notified).toHaveLength(1);
      expect(notified[0]).toBeGreaterThanOrEqual(3);
    }
    const message = (await stream.done).find((e) => e.event === 'message' && e.data.title === '公告：三百人')!;
    const stored = await edb.selectFrom('internal_messages').select(['seq', 'receiver']).where('title', '=', '公告：三百人').execute();
    expect(stored).toHaveLength(300);
    // Every receiver's browser is told the batch's newest seq (the stream's watermark), as notifyEach tells it.
    expect(message.data.seq).toBe(Math.max(...stored.map((r) => Number(r.seq))));
  });

  // A vote's message and its to-do change leave in one statement (docs/decisions/0134): behind the COMMIT on
  // PostgreSQL, each statement would be a transaction of its own.
  it('announces an action’s message and to-do change with one NOTIFY statement; the browser hears both', async () => {
    const title = `一次通知 ${randomUUID().slice(0, 8)}`;
    const stream = await readEvents(approver, (events) => events.some((e) => e.event === 'message' && e.data.title === title) && events.some((e) => e.event === 'todos'));
    await stream.opened;
    let calls = 0;
    const notified: number[] = [];
    await t.database.db.transaction().execute(async (trx) => {
      const batch = new WriteBatch(engineDb(trx, approver.engineCode));
      const notify = batch.notify.bind(batch);
      batch.notify = (...args) => {
        calls++;
        notify(...args);
      };
      addNotices(batch, engineDb(trx, approver.engineCode), approver.engineCode, [{ receiver: approver.id, notice: { category: 'workflow', title } }], { todos: [approver.id] });
      batch.select(() => sql<number>`1`.as('probe'), async (row) => {
        notified.push(...Object.entries(row).filter(([k]) => k.startsWith('notified')).map(([, v]) => Number(v)));
      });
      await batch.flush();
    });
    expect(calls).toBe(1);
    // PGlite counts both events in one expression of the statement's row.
    if (t.database.kind === 'pglite') expect(notified).toEqual([2]);
    const events = await stream.done;
    expect(events.find((e) => e.event === 'message' && e.data.title === title)).toBeDefined();
    expect(events.some((e) => e.event === 'todos')).toBe(true);
  });

  it('holds at most 10 streams a person: the 11th is refused with 340104 while the others stay open', async () => {
    const controllers = Array.from({ length: 10 }, () => new AbortController());
    const headers = { authorization: `Bearer ${approver.token}`, enginecode: approver.engineCode };
    try {
      const open = await Promise.all(controllers.map((c) => fetch(`${baseUrl}/v1/toolkit/live`, { headers, signal: c.signal })));
      expect(open.map((r) => r.status)).toEqual(Array(10).fill(200));
      const refused = await fetch(`${baseUrl}/v1/toolkit/live`, { headers });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ successful: false, errorCode: 340104 });
    } finally {
      for (const c of controllers) c.abort();
    }
    // Closed streams free their places.
    await expect.poll(() => t.app.extras.live.size()).toBe(0);
  });

  it('waits for its process to hear the events only so long', async () => {
    const hub = createLiveHub();
    expect(await hub.hearing(20)).toBe(true);
    hub.hearFrom(() => new Promise<void>(() => {}));
    expect(await hub.hearing(20)).toBe(false);
    await hub.close();
  });

  it('refuses a stream without a session', async () => {
    const res = await fetch(`${baseUrl}/v1/toolkit/live`);
    expect(res.status).toBeLessThan(500);
    expect(((await res.json()) as { successful: boolean }).successful).toBe(false);
  });
});

describe('deliveries', () => {
  it('follows the engine default over no choice, the user’s own choice over the default; retries, then fails into the log', async () => {
    // Only the administrator sets the engine's defaults.
    const refused = await approver.c.raw('POST', '/v1/notification/preference/save', { engineDefaults: true, preferences: [{ category: 'workflow', channels: ['sms'] }] });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 340102 });
    await a.post('/v1/notification/preference/save', { engineDefaults: true, preferences: [{ category: 'workflow', channels: ['sms'] }] });
    expect((await approver.c.get('/v1/notification/preference')).defaults).toContainEqual({ category: 'workflow', channels: ['sms'] });

    sent.length = 0;
    failures = [new ChannelError('网关超时', true), null];
    await submitRecord('快递费');
    while (await t.app.extras.jobs.runOnce());
    expect(sent.map((m) => [m.title, m.recipient.name, m.link])).toEqual([['待办：快递费', '审批人', expect.stringMatching(/^https:\/\/tritium\.example\/form\/open\//)]]);
    const log = await a.post('/v1/notification/delivery/list', {});
    expect(log.list[0]).toMatchObject({ channel: 'sms', state: 'Succeeded', attempts: 2, receiverName: '审批人', title: '待办：快递费' });

    // Failing every time: four attempts, then Failed with the provider's words; a refusal no retry can mend fails at once.
    failures = [1, 2, 3, 4].map(() => new ChannelError('网关故障 500', true));
    await submitRecord('停车费');
    while (await t.app.extras.jobs.runOnce());
    expect((await a.post('/v1/notification/delivery/list', { state: 'Failed' })).list[0]).toMatchObject({ attempts: 4, detail: '网关故障 500', title: '待办：停车费' });

    // The approver turns SMS off for workflow messages: nothing is queued for them.
    await approver.c.post('/v1/notification/preference/save', { preferences: [{ category: 'workflow', channels: [] }] });
    const before = (await a.post('/v1/notification/delivery/list', {})).total;
    await submitRecord('话费');
    while (await t.app.extras.jobs.runOnce());
    expect((await a.post('/v1/notification/delivery/list', {})).total).toBe(before);

    // A category named twice is refused whole.
    const twice = await approver.c.raw('POST', '/v1/notification/preference/save', { preferences: [{ category: 'comment', channels: ['email'] }, { category: 'comment', channels: [] }] });
    expect(twice.body).toMatchObject({ successful: false, errorCode: 340103 });
    expect((await approver.c.get('/v1/notification/preference')).mine.find((p: { category: string }) => p.category === 'comment')).toBeUndefined();

    // The log is the administrator's.
    expect((await approver.c.raw('POST', '/v1/notification/delivery/list', {})).body).toMatchObject({ successful: false, errorCode: 100403 });
  });
});

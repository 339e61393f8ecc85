import type { AddressInfo } from 'node:net';
import { engineDb } from '../packages/server/src/db/database.ts';
import { notify } from '../packages/server/src/modules/notification/notify.ts';
import { openBenchApp, registerBenchEngine, BENCH_CODE, round1 } from './setup.ts';
import { onThrowawayPostgres, post, saveResult, type App } from './lib.ts';

// Issue 20: live push to many open browsers. USERS members each hold STREAMS_PER_USER server-sent-event streams
// (1,000 in all, over real HTTP on loopback); the notification service sends NOTICES notices to every member, and
// the bench counts the events that reach the streams: events per second from the first notice to the last event,
// and the process's RSS before and while holding the streams (clients and server share the process, so the figure
// is an upper bound for the server). Run: npm run bench:live [-- postgres] (default: PGlite in memory; `postgres` uses a
// throw-away database on BENCH_DATABASE_URL's server).

const USERS = 100;
const STREAMS_PER_USER = 10;
const NOTICES = 20;

async function member(app: App, admin: { headers: Record<string, string> }, companyId: string, i: number) {
  const mobile = `137${String(i).padStart(8, '0')}`;
  const user = await post(app, '/v1/org/user/create', { name: `成员${i}`, mobile, departmentIds: [companyId] }, admin.headers);
  await app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene: 'login' } });
  const signed = (await app.inject({ method: 'GET', url: `/v1/login/mobile/verifycode?mobile=${mobile}&code=${BENCH_CODE}` })).json() as any;
  return { userId: user.id as string, headers: { authorization: `Bearer ${signed.data.accessToken}`, enginecode: signed.data.engineCode as string } };
}

async function main(databaseUrl?: string) {
  const { app, database } = await openBenchApp(databaseUrl);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const admin = await registerBenchEngine(app, '13600000001');
  const company = (await app.inject({ method: 'GET', url: '/v1/org/department', headers: admin.headers })).json().data.id as string;
  const members = [];
  for (let i = 0; i < USERS; i++) members.push(await member(app, admin, company, i));

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let received = 0;
  let lastAt = 0;
  const controllers: AbortController[] = [];
  const readers: Promise<void>[] = [];
  for (const m of members) {
    for (let s = 0; s < STREAMS_PER_USER; s++) {
      const controller = new AbortController();
      controllers.push(controller);
      const res = await fetch(`${base}/v1/toolkit/live`, { headers: m.headers, signal: controller.signal });
      if (res.status !== 200) throw new Error(`stream refused: ${res.status} ${await res.text()}`);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      readers.push(
        (async () => {
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            buffer += decoder.decode(value, { stream: true });
            let cut;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              if (buffer.slice(0, cut).includes('event: message')) {
                received++;
                lastAt = performance.now();
              }
              buffer = buffer.slice(cut + 2);
            }
          }
        })().catch(() => undefined),
      );
    }
  }
  global.gc?.();
  const rssHolding = process.memoryUsage().rss;
  const expected = NOTICES * USERS * STREAMS_PER_USER;
  const edb = engineDb(database.db, admin.engineCode);
  const started = performance.now();
  for (let n = 0; n < NOTICES; n++) {
    await notify(edb, admin.engineCode, members.map((m) => m.userId), { category: 'system', title: `系统通知 ${n}` });
  }
  const sentAt = performance.now();
  const deadline = Date.now() + 60_000;
  while (received < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const seconds = (lastAt - started) / 1000;
  const figures = {
    database: database.kind,
    streams: USERS * STREAMS_PER_USER,
    notices: NOTICES,
    eventsExpected: expected,
    eventsReceived: received,
    sendMs: round1(sentAt - started),
    eventsPerSecond: Math.round(received / seconds),
    rssBeforeMB: Math.round(rssBefore / 2 ** 20),
    rssHoldingMB: Math.round(rssHolding / 2 ** 20),
    kbPerStream: round1((rssHolding - rssBefore) / 1024 / (USERS * STREAMS_PER_USER)),
  };
  console.log(figures);
  saveResult(`live-events-${database.kind}`, figures);
  for (const c of controllers) c.abort();
  await Promise.all(readers);
  await app.close();
  await database.close();
}

if (process.argv[2] === 'postgres') await onThrowawayPostgres('live', (url) => main(url));
else await main();

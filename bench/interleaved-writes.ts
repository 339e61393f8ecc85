/**
 * Two versions of the write path side by side in ONE process, requests alternated one by one (A, B, then B, A…), so
 * the load of a shared machine moves both alike: a CreateBizObjects of 100 (BENCH_AB_BULK, 40) and single creates
 * (Submit, BENCH_AB_SINGLE, 200) of the peer workload's form, each app on a throw-away PostgreSQL database, through
 * app.inject. Prints each side's median and how many alternated pairs B won.
 * Run: BENCH_AB_A=<tree before> [BENCH_AB_B=<tree after>, default this one] node --import tsx bench/interleaved-writes.ts
 */
import path from 'node:path';
import { ROOT } from '../e2e/global-setup.ts';
import { onThrowawayPostgres } from './lib.ts';

const roots = [path.resolve(process.env.BENCH_AB_A ?? ROOT), path.resolve(process.env.BENCH_AB_B ?? ROOT)];
const CODE = '246810';
const FORM = { attributes: { displayName: '同行负载' }, controls: [
  { type: 'textBox', code: 'Title', options: { displayName: '标题' } }, { type: 'textArea', code: 'Notes', options: { displayName: '备注' } },
  { type: 'number', code: 'Qty', options: { displayName: '数量', decimalPlaces: 0 } }, { type: 'number', code: 'Price', options: { displayName: '单价', decimalPlaces: 2 } },
  { type: 'dateTime', code: 'Due', options: { displayName: '到期' } }, { type: 'dropDown', code: 'State', options: { displayName: '状态', defaultItems: ['待办', '进行中', '已完成'] } },
  { type: 'checkbox', code: 'Done', options: { displayName: '完成' } }, { type: 'textBox', code: 'OwnerName', options: { displayName: '负责人' } } ] };
const rec = (n: number) => ({ Title: `任务 alpha ${n}`, Notes: `第 ${n} 条记录的备注：${'说明文字'.repeat(15)}`, Qty: n % 1000, Price: 12.34, Due: '2026-03-04', State: '待办', Done: n % 2 === 0, OwnerName: '张伟' });
async function setup(root: string, url: string) {
  const { openDatabase } = await import(`${root}/packages/server/src/db/database.ts`);
  const { migratePlatform } = await import(`${root}/packages/server/src/db/migrate.ts`);
  const { buildApp } = await import(`${root}/packages/server/src/app.ts`);
  const { loadConfig } = await import(`${root}/packages/server/src/config.ts`);
  const database = await openDatabase({ databaseUrl: url });
  await migratePlatform(database.db);
  const app = await buildApp({ config: { ...loadConfig({}), rateLimit: false, fixedVerifyCode: CODE, jwtSecret: 'bench-secret-0123456789abcdef' }, db: database.db, logger: false, listen: database.listen });
  await app.ready();
  const post = async (u: string, body: any, headers: any = {}) => (await app.inject({ method: 'POST', url: u, headers, payload: body })).json() as any;
  const call = async (u: string, body: any, headers: any) => { const j = await post(u, body, headers); if (!j.successful) throw new Error(JSON.stringify(j)); return j.data; };
  const mobile = `136${String(Date.now()).slice(-8)}`;
  await post('/v1/captcha/verifycode/send', { mobile, scene: 'register' });
  const reg = await call('/v1/register/engine', { mobile, code: CODE, password: 'Passw0rd1', userName: '压测', engineName: '压测集团' }, {});
  const headers = { authorization: `Bearer ${reg.accessToken}`, enginecode: reg.engineCode };
  const appNode = await call('/v1/functionnode', { code: 'PeerApp', displayName: '同行负载', nodeType: 190 }, headers);
  await call('/v1/functionnode', { code: 'D026peer', appCode: appNode.code, displayName: '任务', nodeType: 200 }, headers);
  const loaded = await call('/v1/formdesign/load', { schemaCode: 'D026peer' }, headers);
  const saved = await call('/v1/formdesign/save', { schemaCode: 'D026peer', baseVersion: loaded.draft.version, definition: FORM }, headers);
  await call('/v1/formdesign/publish', { schemaCode: 'D026peer', version: saved.version, confirm: [] }, headers);
  const secret = (await call('/v1/engine/secret/create', { name: '压测' }, headers)).value;
  const inv = { EngineCode: reg.engineCode, EngineSecret: secret };
  let seq = 0;
  return {
    bulk: async () => { const r = await post('/OpenApi/Invoke', { ActionName: 'CreateBizObjects', SchemaCode: 'D026peer', BizObjectArray: Array.from({ length: 100 }, () => JSON.stringify(rec(seq++))), IsSubmit: 'true' }, inv); if (!r.Successful) throw new Error(JSON.stringify(r)); },
    single: async () => { await call('/v1/form/action/execute', { schemaCode: 'D026peer', actionCode: 'Submit', values: { ...rec(seq++), Due: '2026-06-01T00:00:00+08:00' } }, headers); },
    close: async () => { await app.close(); await database.close(); },
  };
}
await onThrowawayPostgres('tritium_ab_a', (urlA: string) => onThrowawayPostgres('tritium_ab_b', async (urlB: string) => {
  const apps = [await setup(roots[0]!, urlA), await setup(roots[1]!, urlB)];
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
  for (const kind of ['bulk', 'single'] as const) {
    const n = kind === 'bulk' ? Number(process.env.BENCH_AB_BULK ?? 40) : Number(process.env.BENCH_AB_SINGLE ?? 200);
    const t: number[][] = [[], []];
    for (let i = 0; i < 3; i++) for (const a of apps) await a[kind]();
    for (let i = 0; i < n; i++) for (const j of i % 2 ? [1, 0] : [0, 1]) { const t0 = performance.now(); await apps[j]![kind](); t[j]!.push(performance.now() - t0); }
    console.log(`${kind}: A ${med(t[0]!).toFixed(2)} ms, B ${med(t[1]!).toFixed(2)} ms, B/A ${(med(t[1]!) / med(t[0]!)).toFixed(2)}; pairs where B faster: ${t[0]!.filter((x, i) => t[1]![i]! < x).length}/${n}`);
  }
  for (const a of apps) await a.close();
}));

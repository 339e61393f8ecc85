/**
 * App package install benchmark (issue 46, docs/decisions/0130): a package of a 50-form app — one customer form and 49
 * forms of 10 fields each with an association to it — carrying 10,000 sample records (200 per form, each referring to
 * a customer), uploaded and installed into an engine as the background job does it (every form through the
 * designers' services, the records through the import's set-wise path). Measured: the install's seconds from start to
 * Finished, and when its structure was done (70 %). The goal is ≤ 30 s.
 * Run: node --import tsx bench/app-install.ts   (PostgreSQL in a throw-away database on BENCH_DATABASE_URL, then
 * PGlite in a fresh data folder; BENCH_INSTALL_DATABASE=pglite|postgres runs one; BENCH_NO_REF=1 leaves the records'
 * association values out). Writes bench/results/app-install.json (app-install-no-references.json).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contracts } from '@tritium/shared';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { writePackageFile } from '../packages/server/src/modules/app-package/package-format.ts';
import { FORMS, RECORDS, benchPackage } from './app-install-package.ts';
import { onThrowawayPostgres, post, saveResult } from './lib.ts';

const CODE = '246810';
const only = process.env.BENCH_INSTALL_DATABASE;

async function measure(url: string | undefined, version: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-bench-install-'));
  const database = await openDatabase(url ? { databaseUrl: url } : { pgliteDataDir: path.join(dir, 'pglite') });
  await migratePlatform(database.db);
  const app = await buildApp({ config: { ...loadConfig({}), dataDir: dir, rateLimit: false, fixedVerifyCode: CODE, jwtSecret: 'bench-secret-0123456789abcdef' }, db: database.db, logger: false });
  await app.ready();
  try {
    const mobile = '13600000046';
    await app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene: 'register' } });
    const reg = (await app.inject({ method: 'POST', url: '/v1/register/engine', payload: { mobile, code: CODE, password: 'Passw0rd1', userName: '压测管理员', engineName: '压测集团' } })).json() as any;
    const headers = { authorization: `Bearer ${reg.data.accessToken}`, enginecode: reg.data.engineCode };
    const pkg = contracts.AppPackage.parse(benchPackage());
    const bytes = await writePackageFile({ pkg, files: new Map() });
    const uploaded = (await app.inject({ method: 'POST', url: '/v1/app-package/upload', headers: { ...headers, 'content-type': 'application/gzip' }, payload: bytes })).json() as any;
    if (!uploaded.successful) throw new Error(JSON.stringify(uploaded));
    const started = Date.now();
    const { actionId } = await post(app, '/v1/app-package/install', { packageId: uploaded.data.packageId, sampleData: true }, headers);
    let structure = 0;
    let state = '';
    // The job runs in this process (the app's runner is not started by inject): step it, and watch its progress.
    const running = (async () => {
      while (await app.extras.jobs.runOnce());
    })();
    for (;;) {
      const p = (await app.inject({ method: 'GET', url: '/v1/app-package/install/progress', query: { actionId }, headers })).json().data;
      if (!structure && p.progress >= 70) structure = (Date.now() - started) / 1000;
      state = p.state;
      if (['Finished', 'Failed', 'Timeout', 'Canceled'].includes(p.state)) {
        if (p.state !== 'Finished') throw new Error(`install ${p.state}: ${p.message}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await running;
    const seconds = (Date.now() - started) / 1000;
    const figures = { database: url ? `PostgreSQL ${version}` : 'PGlite', forms: FORMS, records: RECORDS, packageBytes: bytes.length, seconds, structureSeconds: structure, samplesSeconds: +(seconds - structure).toFixed(1), recordsPerSecond: Math.round(RECORDS / (seconds - structure)), state };
    console.log(JSON.stringify(figures));
    return figures;
  } finally {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs = [];
if (only !== 'pglite') runs.push(await onThrowawayPostgres('tritium_bench_install', measure));
if (only !== 'postgres') runs.push(await measure(undefined, 'embedded'));
saveResult(process.env.BENCH_NO_REF ? 'app-install-no-references' : 'app-install', { runs: runs.filter(Boolean), goalSeconds: 30 });

/**
 * Excel import and export benchmark (issue 10, docs/decisions/0020): a 10-field form; an .xlsx of BENCH_PORT_ROWS
 * (100,000) rows is uploaded and imported as one background task (InsertOnly, Draft: every row checked like a save,
 * committed in batches of 1000 with their marks), then every record is exported to .xlsx. Measured on PostgreSQL in a
 * throw-away database: rows per second of each job and the process's peak RSS while it runs (sampled every 50 ms).
 * Run: npm run bench:dataport   (writes bench/results/data-port.json and the "Excel import and export" section of
 * docs/performance.md). BENCH_PORT_STATEMENTS=1 also prints each job's statements with their count and total time.
 * BENCH_PORT_DATABASE=pglite runs the same on embedded PGlite (a fresh data folder) instead of PostgreSQL.
 * BENCH_PORT_ROWS=30000 runs a smaller file (quicker to iterate on). Each job prints its CPU seconds: the process's (every
 * thread), its main thread's, and PostgreSQL's backends' for the bench's database; and its span on the profile clock
 * (`phase import <from> <to>`: with `node --cpu-prof`, bench/profile-phases.mjs summarises that span).
 * TRITIUM_XLSX_WORKER_FROM_ROWS=5000 runs the reader and the writer in worker threads (docs/decisions/0106).
 * BENCH_PORT_ASSOCIATION=200 adds an association (关联表单) column choosing one of 200 Effective records of another form
 * on every row (docs/decisions/0135; the import's results go to data-port-association[-pglite].json instead).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { onThrowawayPostgres, post, saveResult, writePerformanceSection } from './lib.ts';

const ROWS = Number(process.env.BENCH_PORT_ROWS ?? 100_000);
const CODE = '246810';
const PEER_ROWS_PER_MINUTE = 1_000_000;

const CONTROLS = [
  ...Array.from({ length: 4 }, (_, i) => ({ type: 'textBox', code: `T${i}`, options: { displayName: `文本${i}` } })),
  ...Array.from({ length: 3 }, (_, i) => ({ type: 'number', code: `N${i}`, options: { displayName: `数字${i}`, decimalPlaces: 2 } })),
  { type: 'dateTime', code: 'Day', options: { displayName: '日期' } },
  { type: 'dropDown', code: 'Kind', options: { displayName: '类别', defaultItems: ['甲', '乙', '丙'] } },
  { type: 'checkbox', code: 'Ok', options: { displayName: '完成' } },
];
const HEADER = CONTROLS.map((c) => c.options.displayName);
const ASSOCIATED = Number(process.env.BENCH_PORT_ASSOCIATION ?? 0);
const ASSOCIATION_HEADER = '往来单位';

async function writeSheet(file: string, chosen: string[] = []) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
  const sheet = wb.addWorksheet('数据');
  sheet.addRow(chosen.length ? [...HEADER, ASSOCIATION_HEADER] : HEADER).commit();
  for (let i = 0; i < ROWS; i++) {
    const row: unknown[] = [`客户${i}`, `地址${i % 1000}`, 'abc', `备注${i}`, i, i * 1.5, 3.25, `2026-0${1 + (i % 9)}-1${i % 10}`, ['甲', '乙', '丙'][i % 3], i % 2 ? '是' : '否'];
    if (chosen.length) row.push(chosen[i % chosen.length]);
    sheet.addRow(row).commit();
  }
  sheet.commit();
  await wb.commit();
}

/** CPU seconds (user + system) of a process, or of one of its threads, from /proc (clock ticks of 10 ms); 0 once it ended. */
function cpuSecondsOf(pid: number, thread?: number): number {
  try {
    const fields = readFileSync(thread ? `/proc/${pid}/task/${thread}/stat` : `/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The CPU seconds used so far by PostgreSQL's backends serving `url`'s database (same machine), by pid. */
async function databaseCpu(url: string | undefined): Promise<Map<number, number>> {
  const used = new Map<number, number>();
  if (!url) return used;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    for (const { pid } of rows) used.set(pid, cpuSecondsOf(pid));
  } finally {
    await admin.end();
  }
  return used;
}

/**
 * Runs `work` while sampling RSS; answers its seconds, the process's CPU seconds (user + system: less sensitive to
 * other work on a shared machine than the wall clock; on PGlite it includes the database's work) and the peak RSS in MB.
 */
async function measured(job: string, url: string | undefined, work: () => Promise<unknown>) {
  const database = await databaseCpu(url);
  const from = process.hrtime.bigint() / 1000n;
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const mainThread = cpuSecondsOf(process.pid, process.pid);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const used = process.cpuUsage(cpu);
  // The job's span on the monotonic clock of a --cpu-prof profile (bench/profile-phases.mjs reads it).
  console.log(`phase ${job} ${from} ${process.hrtime.bigint() / 1000n}`);
  // PostgreSQL's share: its backends for the bench's database (one that started during the job counts whole).
  let databaseCpuSeconds = 0;
  for (const [pid, seconds] of await databaseCpu(url)) databaseCpuSeconds += seconds - (database.get(pid) ?? 0);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: Math.round((used.user + used.system) / 1e5) / 10, mainThreadCpuSeconds: Math.round((cpuSecondsOf(process.pid, process.pid) - mainThread) * 10) / 10, databaseCpuSeconds: Math.round(databaseCpuSeconds * 10) / 10, peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 1024 / 1024) };
}

/** BENCH_PORT_STATEMENTS=1: the statements of each job, by their text's start, with count and total time. */
const statements = process.env.BENCH_PORT_STATEMENTS ? new Map<string, { count: number; ms: number }>() : undefined;
function countStatement(text: string, ms: number) {
  const key = text.replace(/\s+/g, ' ').replace(/\(\$\d+(, \$\d+)*\)(, \(\$\d+(, \$\d+)*\))*/g, '(…)').slice(0, 110);
  const s = statements!.get(key) ?? { count: 0, ms: 0 };
  s.count++;
  s.ms += ms;
  statements!.set(key, s);
}
function printStatements(job: string) {
  if (!statements) return;
  const rows = [...statements].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15);
  console.log(`statements of the ${job} (count, total ms):`);
  for (const [text, s] of rows) console.log(`${String(s.count).padStart(7)} ${s.ms.toFixed(0).padStart(7)} ms  ${text}`);
  statements.clear();
}

async function measure(url: string | undefined, version: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-bench-port-'));
  const where = url ? { databaseUrl: url } : { pgliteDataDir: path.join(dir, 'pglite') };
  const database = await openDatabase({ ...where, ...(statements ? { onQuery: countStatement } : {}) });
  await migratePlatform(database.db);
  const app = await buildApp({ config: { ...loadConfig({}), dataDir: dir, rateLimit: false, fixedVerifyCode: CODE, jwtSecret: 'bench-secret-0123456789abcdef' }, db: database.db, logger: false });
  await app.ready();
  try {
    const mobile = '13600000010';
    await app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene: 'register' } });
    const reg = (await app.inject({ method: 'POST', url: '/v1/register/engine', payload: { mobile, code: CODE, password: 'Passw0rd1', userName: '压测管理员', engineName: '压测集团' } })).json() as any;
    const headers = { authorization: `Bearer ${reg.data.accessToken}`, enginecode: reg.data.engineCode };
    const appNode = await post(app, '/v1/functionnode', { displayName: '导入压测', nodeType: 190 }, headers);
    const publishForm = async (displayName: string, controls: unknown[]) => {
      const node = await post(app, '/v1/functionnode', { appCode: appNode.code, parentCode: appNode.code, displayName, nodeType: 200 }, headers);
      const loaded = await post(app, '/v1/formdesign/load', { schemaCode: node.code }, headers);
      const saved = await post(app, '/v1/formdesign/save', { schemaCode: node.code, baseVersion: loaded.draft.version, definition: { attributes: { displayName }, controls } }, headers);
      await post(app, '/v1/formdesign/publish', { schemaCode: node.code, version: saved.version, confirm: [] }, headers);
      return node;
    };
    // BENCH_PORT_ASSOCIATION: the other form's Effective records, each row choosing one.
    const chosen: string[] = [];
    let association: unknown[] = [];
    if (ASSOCIATED) {
      const other = await publishForm(ASSOCIATION_HEADER, [{ type: 'textBox', code: 'Title', options: { displayName: '名称' } }]);
      for (let i = 0; i < ASSOCIATED; i++) chosen.push((await post(app, '/v1/form/action/execute', { schemaCode: other.code, actionCode: 'Submit', values: { Title: `单位${i}` } }, headers)).objectId);
      association = [{ type: 'associationQuery', code: 'Partner', options: { displayName: ASSOCIATION_HEADER, schemaCode: other.code } }];
    }
    const form = await publishForm('客户', [...CONTROLS, ...association]);
    const file = path.join(dir, 'rows.xlsx');
    await writeSheet(file, chosen);
    const bytes = readFileSync(file);
    const upload = (await app.inject({ method: 'POST', url: '/v1/file/upload', query: { scene: 'gridImportFile', fileName: 'rows.xlsx' }, headers: { ...headers, 'content-type': 'application/octet-stream' }, payload: bytes })).json() as any;
    if (!upload.successful) throw new Error(JSON.stringify(upload));
    const baseRssMb = Math.round(process.memoryUsage().rss / 1024 / 1024);
    const imp = await post(app, '/v1/dataImport/addImportTask', { schemaCode: form.code, fileId: upload.data.fileId }, headers);
    statements?.clear();
    const importRun = await measured('import', url, () => app.extras.jobs.runOnce());
    printStatements('import');
    const imported = (await post(app, '/v1/dataPort/LoadTaskRecords', { TaskIds: [imp.taskId] }, headers)).list[0];
    if (imported.state !== 'Finished' || imported.inserted !== ROWS) {
      const link = await post(app, '/v1/dataPort/getDownloadUrl', { taskId: imp.taskId, kind: 'ErrorReport' }, headers).catch(() => null);
      const report = link ? new ExcelJS.Workbook() : null;
      if (report && link) await report.xlsx.load((await app.inject({ method: 'GET', url: link.url })).rawPayload as unknown as ArrayBuffer);
      const rows: unknown[] = [];
      report?.worksheets[0]?.eachRow((r) => rows.push(r.values));
      throw new Error(`import ended ${JSON.stringify(imported)} ${JSON.stringify(rows.slice(0, 3))}`);
    }
    const exp = await post(app, '/v1/dataExport/addExportTask', { schemaCode: form.code }, headers);
    statements?.clear();
    const exportRun = await measured('export', url, () => app.extras.jobs.runOnce());
    printStatements('export');
    const exported = (await post(app, '/v1/dataPort/LoadTaskRecords', { TaskIds: [exp.taskId] }, headers)).list[0];
    if (exported.state !== 'Finished' || exported.total !== ROWS) throw new Error(`export ended ${JSON.stringify(exported)}`);
    return {
      database: url ? `PostgreSQL ${version}` : `PGlite ${version}`, rows: ROWS, fileMb: Math.round((bytes.length / 1024 / 1024) * 10) / 10, baseRssMb,
      import: { seconds: Math.round(importRun.seconds * 10) / 10, rowsPerSecond: Math.round(ROWS / importRun.seconds), cpuSeconds: importRun.cpuSeconds, mainThreadCpuSeconds: importRun.mainThreadCpuSeconds, databaseCpuSeconds: importRun.databaseCpuSeconds, peakRssMb: importRun.peakRssMb },
      export: { seconds: Math.round(exportRun.seconds * 10) / 10, rowsPerSecond: Math.round(ROWS / exportRun.seconds), cpuSeconds: exportRun.cpuSeconds, mainThreadCpuSeconds: exportRun.mainThreadCpuSeconds, databaseCpuSeconds: exportRun.databaseCpuSeconds, peakRssMb: exportRun.peakRssMb },
    };
  } finally {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const onPglite = process.env.BENCH_PORT_DATABASE === 'pglite';
const run = onPglite ? await measure(undefined, 'embedded') : await onThrowawayPostgres('tritium_bench_port', measure);
if (!run) process.exit(0);
const result = saveResult(`data-port${ASSOCIATED ? '-association' : ''}${onPglite ? '-pglite' : ''}`, run);
console.log(JSON.stringify({ database: run.database, import: run.import, export: run.export, baseRssMb: run.baseRssMb }));
if (ASSOCIATED) process.exit(0);
// The section of docs/performance.md holds the PostgreSQL run.
if (onPglite) process.exit(0);
const peer = Math.round(PEER_ROWS_PER_MINUTE / 60);
if (!process.env.BENCH_NO_DOC) writePerformanceSection('Excel import and export', [
  '## Excel import and export',
  '',
  `\`npm run bench:dataport\` (bench/data-port.ts, ${result.date.slice(0, 10)}, ${result.cpus} CPU ${result.cpu ?? ''}, Node ${result.node}, ${run.database}): a 10-field form`,
  `(4 text boxes, 3 numbers, a date, a drop-down, a yes/no), an .xlsx of ${run.rows.toLocaleString('en-US')} rows (${run.fileMb} MB) imported as one background task`,
  '(InsertOnly, Draft; every row converted and checked like a form save, committed 1000 records per transaction with their marks,',
  'each table written in one statement: docs/decisions/0081; numbered as every save numbers its records and two batches',
  'in flight on PostgreSQL: 0099),',
  'then every record exported to .xlsx (every key first in the list\'s order, then the records 1,000 keys at a time: 0082).',
  'The jobs run in the measuring process; RSS is the whole process,',
  `${run.baseRssMb} MB before the import.`,
  '',
  '| job | rows | seconds | rows / s | peak RSS |',
  '|---|---|---|---|---|',
  `| import (.xlsx → records) | ${run.rows.toLocaleString('en-US')} | ${run.import.seconds} | ${run.import.rowsPerSecond.toLocaleString('en-US')} | ${run.import.peakRssMb} MB |`,
  `| export (records → .xlsx) | ${run.rows.toLocaleString('en-US')} | ${run.export.seconds} | ${run.export.rowsPerSecond.toLocaleString('en-US')} | ${run.export.peakRssMb} MB |`,
  '',
  `A peer product publishes about ${PEER_ROWS_PER_MINUTE.toLocaleString('en-US')} simple rows per minute on import (≈ ${peer.toLocaleString('en-US')} rows / s) on its own hardware;`,
  `this run is ${Math.round((run.import.rowsPerSecond / peer) * 100)} % of that figure on a 2-core machine shared with other work.`,
  'Before the batch took its sequence numbers as one block (one statement per record until then, and the date text of',
  'each number worked out anew), the same 100,000-row import ran at 239 rows / s (418 s).',
]);

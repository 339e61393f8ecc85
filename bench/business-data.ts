/**
 * Business data benchmark (issue "Form runtime and business data"): creating records of a 20-field form with a
 * sequence number, a NoRepeat text box and a 3-row sub-table through POST /v1/form/action/execute (Submit), one after
 * another and 10 at a time, then loading one record (POST /v1/form/loaddata). On PGlite and (when reachable) on
 * PostgreSQL in a throw-away database. Calls go through app.inject (authentication, authorisation, validation of
 * every value, sequence number, NoRepeat check, transaction).
 * Run: node --import tsx bench/business-data.ts   (writes bench/results/business-data.json and the "Business data"
 * section of docs/performance.md)
 */
import { openBenchApp, percentile, registerBenchEngine, round1 } from './setup.ts';
import { onThrowawayPostgres, post, type App, saveResult, writePerformanceSection } from './lib.ts';

const CREATES = Number(process.env.BENCH_DATA_CREATES ?? 300);
const PARALLEL = 10;
const LOAD_ROUNDS = Number(process.env.BENCH_DATA_ROUNDS ?? 100);
const WARMUP = 5;


const FIELDS = [
  { type: 'textBox', code: 'Title', options: { required: true } },
  { type: 'textBox', code: 'OrderNo', options: { noRepeat: true } },
  ...Array.from({ length: 6 }, (_, i) => ({ type: 'textBox', code: `T${i}` })),
  ...Array.from({ length: 5 }, (_, i) => ({ type: 'number', code: `N${i}`, options: { decimalPlaces: 2 } })),
  { type: 'textArea', code: 'Remark' },
  { type: 'dateTime', code: 'DueDate' },
  { type: 'checkboxList', code: 'Tags', options: { defaultItems: ['a', 'b', 'c'] } },
  { type: 'checkbox', code: 'Urgent' },
  { type: 'user', code: 'Buyer', options: { defaultValue: 'currentUser' } },
  { type: 'dropDown', code: 'Kind', options: { defaultItems: ['x', 'y'] } },
  { type: 'seqNo', code: 'SeqNo' },
  { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'number', code: 'Qty' }] },
];

const record = (i: number) => ({
  values: {
    Title: `订单${i}`, OrderNo: `SO-${i}`, T0: 'a', T1: 'b', T2: 'c', T3: 'd', T4: 'e', T5: 'f', N0: i, N1: 1.5, N2: 2, N3: 3, N4: 4,
    Remark: '备注'.repeat(20), DueDate: '2026-12-01T00:00:00+08:00', Tags: ['a', 'c'], Urgent: i % 2 === 0, Kind: 'x',
  },
  children: { Items: [{ ItemName: '螺丝', Qty: 1 }, { ItemName: '螺母', Qty: 2 }, { ItemName: '垫片', Qty: 3 }] },
});

async function measure(label: string, databaseUrl?: string) {
  const { app, database } = await openBenchApp(databaseUrl);
  try {
    const { headers } = await registerBenchEngine(app, '13600000003');
    const appNode = await post(app, '/v1/functionnode', { code: 'BenchApp', displayName: '压测应用', nodeType: 190 }, headers);
    const node = await post(app, '/v1/functionnode', { code: 'BenchOrders', appCode: appNode.code, displayName: '压测订单', nodeType: 200 }, headers);
    const loaded = await post(app, '/v1/formdesign/load', { schemaCode: node.code }, headers);
    const saved = await post(app, '/v1/formdesign/save', { schemaCode: node.code, baseVersion: loaded.draft.version, definition: { attributes: { displayName: '压测订单', nameSchema: '{Title}-{SeqNo}' }, controls: FIELDS } }, headers);
    await post(app, '/v1/formdesign/publish', { schemaCode: node.code, version: saved.version }, headers);
    const create = (i: number) => post(app, '/v1/form/action/execute', { schemaCode: node.code, actionCode: 'Submit', ...record(i) }, headers);

    let n = 0;
    for (let i = 0; i < WARMUP; i++) await create(n++);
    let started = process.hrtime.bigint();
    for (let i = 0; i < CREATES; i++) await create(n++);
    const sequentialPerSecond = CREATES / (Number(process.hrtime.bigint() - started) / 1e9);
    started = process.hrtime.bigint();
    for (let i = 0; i < CREATES; i += PARALLEL) await Promise.all(Array.from({ length: PARALLEL }, () => create(n++)));
    const parallelPerSecond = CREATES / (Number(process.hrtime.bigint() - started) / 1e9);
    const last = await create(n++);

    const samples: number[] = [];
    for (let i = 0; i < WARMUP + LOAD_ROUNDS; i++) {
      const t0 = process.hrtime.bigint();
      await post(app, '/v1/form/loaddata', { schemaCode: node.code, objectId: last.objectId }, headers);
      if (i >= WARMUP) samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    samples.sort((x, y) => x - y);
    const result = {
      database: label,
      records: n,
      sequentialPerSecond: Math.round(sequentialPerSecond),
      parallelPerSecond: Math.round(parallelPerSecond),
      loadMedianMs: round1(percentile(samples, 50)),
      loadP95Ms: round1(percentile(samples, 95)),
    };
    console.log(label, result);
    return result;
  } finally {
    await app.close();
    await database.close();
  }
}

const runs = [await measure('PGlite')];
const pgRun = await onThrowawayPostgres('tritium_bench_data', (url, version) => measure(`PostgreSQL ${version}`, url));
if (pgRun) runs.push(pgRun);

const result = saveResult('business-data', { creates: CREATES, parallel: PARALLEL, rounds: LOAD_ROUNDS, runs });

const lines = [
  '## Business data',
  '',
  `Measured by \`npm run bench:data\` on ${result.date.slice(0, 10)}: Node ${process.version}, ${result.cpus} × ${result.cpu ?? 'CPU'}.`,
  `A form of ${FIELDS.length} controls (a sequence number, a NoRepeat text box, a 2-column sub-table); each create is a Submit`,
  `with 18 values and 3 sub-table rows through \`app.inject\` (validation of every value, NoRepeat check under the form's`,
  `advisory lock, sequence-number counter, insert of the record and its rows in one transaction, data log).`,
  `${CREATES} creates one after another, then ${CREATES} in batches of ${PARALLEL} in parallel; loaddata of one record with its`,
  `sub-table: ${WARMUP} warm-up then ${LOAD_ROUNDS} timed calls.`,
  '',
  `| figure | ${runs.map((r) => r.database).join(' | ')} |`,
  `|---|${runs.map(() => '---').join('|')}|`,
  `| creates per second, sequential | ${runs.map((r) => r.sequentialPerSecond).join(' | ')} |`,
  `| creates per second, ${PARALLEL} in parallel | ${runs.map((r) => r.parallelPerSecond).join(' | ')} |`,
  `| loaddata median ms | ${runs.map((r) => r.loadMedianMs).join(' | ')} |`,
  `| loaddata p95 ms | ${runs.map((r) => r.loadP95Ms).join(' | ')} |`,
  '',
  'PGlite runs one statement at a time (docs/decisions/0001), so parallel creates queue behind each other; on PostgreSQL',
  'they wait only on the form\'s NoRepeat lock and the sequence-number counter row. See docs/decisions/0007-business-data.md.',
  '',
];
writePerformanceSection('Business data', lines);

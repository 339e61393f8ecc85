/**
 * Forms benchmark (issue "Form designer and schema publishing"): publishing a 200-control form (mixed types, two
 * sub-tables, layouts and a tab) from scratch, publishing it again after a change of 10 controls (4 added, 3 removed,
 * 3 converted) on an empty table and on a table of BENCH_FORM_ROWS rows, and loading the designer
 * (POST /v1/formdesign/load) for that form. On PGlite and (when reachable) on PostgreSQL in a throw-away database.
 * Calls go through app.inject (authentication, authorisation, validation of the whole definition, planning, DDL).
 * Run: node --import tsx bench/forms.ts   (writes bench/results/forms.json and the "Forms" section of
 * docs/performance.md)
 */
import { sql } from 'kysely';
import { openBenchApp, percentile, registerBenchEngine } from './setup.ts';
import { onThrowawayPostgres, post, type App, saveResult, writePerformanceSection } from './lib.ts';

const FORMS = Number(process.env.BENCH_FORMS ?? 5);
const ROWS = Number(process.env.BENCH_FORM_ROWS ?? 10_000);
const LOAD_ROUNDS = Number(process.env.BENCH_FORMS_ROUNDS ?? 30);
const WARMUP = 3;

type Control = { type: string; code: string; options?: Record<string, unknown>; controls?: Control[]; panes?: { title: string; controls: Control[] }[] };
interface Figure {
  call: string;
  medianMs: number;
  p95Ms: number;
}

// The mix of a typical business form: mostly text and numbers, some dates, choices, people and files.
const MIX = ['textBox', 'textBox', 'textBox', 'number', 'number', 'textArea', 'dateTime', 'dropDown', 'radioList', 'checkboxList', 'checkbox', 'user', 'department', 'attachment', 'associationQuery', 'formula'];

/** 200 controls: 154 data controls in the main table (18 of them in 5 layouts and a tab), 2 sub-tables of 19 columns each. */
function bigForm(): Control[] {
  const control = (i: number, prefix = 'F'): Control => ({ type: MIX[i % MIX.length], code: `${prefix}${String(i).padStart(4, '0')}` });
  const main = Array.from({ length: 136 }, (_, i) => control(i));
  const layouts = Array.from({ length: 5 }, (_, l) => ({ type: 'layout', code: `Row${l}`, controls: [control(136 + l * 2), control(137 + l * 2)] }));
  const tab: Control = { type: 'tab', code: 'Tabs', panes: [{ title: '其他', controls: Array.from({ length: 8 }, (_, i) => control(146 + i)) }] };
  const grid = (g: number): Control => ({ type: 'gridView', code: `Grid${g}`, controls: Array.from({ length: 19 }, (_, i) => control(i, `G${g}_`)) });
  return [...main, ...layouts, tab, grid(1), grid(2)];
}

/** The same form with 10 controls changed: 4 added, 3 removed, 3 of another type (number → text, text box → text area). */
function changedForm(controls: Control[]): Control[] {
  const removed = new Set(['F0001', 'F0002', 'F0005']);
  const converted = new Map([['F0003', 'textArea'], ['F0004', 'textArea'], ['F0020', 'textBox']]);
  const kept = controls.filter((c) => !removed.has(c.code)).map((c) => (converted.has(c.code) ? { ...c, type: converted.get(c.code)! } : c));
  return [...kept, ...Array.from({ length: 4 }, (_, i) => ({ type: i % 2 ? 'number' : 'textBox', code: `New${i}` }))];
}

const countControls = (list: Control[]): number => list.reduce((n, c) => n + 1 + countControls(c.controls ?? []) + (c.panes ?? []).reduce((m, p) => m + countControls(p.controls), 0), 0);

function figure(label: string, samples: number[]): Figure {
  const sorted = [...samples].sort((x, y) => x - y);
  return { call: label, medianMs: Math.round(percentile(sorted, 50) * 10) / 10, p95Ms: Math.round(percentile(sorted, 95) * 10) / 10 };
}
async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = process.hrtime.bigint();
  const result = await work();
  return [Number(process.hrtime.bigint() - started) / 1e6, result];
}

async function measure(label: string, databaseUrl?: string) {
  const { app, database } = await openBenchApp(databaseUrl);
  try {
    const { engineCode, headers } = await registerBenchEngine(app, '13600000002');
    const appNode = await post(app, '/v1/functionnode', { code: 'BenchApp', displayName: '压测应用', nodeType: 190 }, headers);
    const controls = bigForm();
    const changed = changedForm(controls);
    const definition = (list: Control[]) => ({ attributes: { displayName: '压测表单' }, controls: list });
    const saveSamples: number[] = [];
    const save = async (schemaCode: string, list: Control[]) => {
      const loaded = await post(app, '/v1/formdesign/load', { schemaCode }, headers);
      const [ms, saved] = await timed(() => post(app, '/v1/formdesign/save', { schemaCode, baseVersion: loaded.draft.version, definition: definition(list) }, headers));
      saveSamples.push(ms);
      return saved.version as number;
    };
    const publish = (schemaCode: string, version: number, confirm: string[] = []) => post(app, '/v1/formdesign/publish', { schemaCode, version, confirm }, headers);

    const fromScratch: number[] = [];
    const afterChange: number[] = [];
    const afterChangeWithRows: number[] = [];
    let columns = 0;
    for (let f = 0; f < FORMS * 2; f++) {
      const withRows = f >= FORMS;
      const node = await post(app, '/v1/functionnode', { code: `BenchForm${f}`, appCode: appNode.code, displayName: `压测表单${f}`, nodeType: 200 }, headers);
      const version1 = await save(node.code, controls);
      const [ms, result] = await timed(() => publish(node.code, version1));
      if (!withRows) fromScratch.push(ms);
      const table = result.changes[0].table as string;
      columns = (await sql<{ n: number }>`select count(*)::int as n from information_schema.columns where table_schema = ${`e_${engineCode}`} and table_name = ${table}`.execute(database.db)).rows[0].n;
      if (withRows) {
        const ref = sql.id(`e_${engineCode}`, table);
        await sql`insert into ${ref} ("Name", "F0000", "F0003", "F0004", "F0020") select 'r' || g, 'text ' || g, g, g * 1.5, g * 2 from generate_series(1, ${ROWS}) g`.execute(database.db);
        await sql`analyze ${ref}`.execute(database.db);
      }
      const version = await save(node.code, changed);
      const dry = await post(app, '/v1/formdesign/publish', { schemaCode: node.code, version, dryRun: true }, headers);
      const confirm = dry.changes.filter((c: { needsConfirmation: boolean }) => c.needsConfirmation).map((c: { key: string }) => c.key);
      const [changeMs, changedResult] = await timed(() => publish(node.code, version, confirm));
      if (changedResult.changes.length !== 10) throw new Error(`expected 10 changes, got ${changedResult.changes.length}`);
      (withRows ? afterChangeWithRows : afterChange).push(changeMs);
    }

    const loadSamples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < WARMUP + LOAD_ROUNDS; i++) {
      const started = process.hrtime.bigint();
      const res = await app.inject({ method: 'POST', url: '/v1/formdesign/load', headers, payload: { schemaCode: 'BenchForm0' } });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      bytes = res.rawPayload.length;
      if (i >= WARMUP) loadSamples.push(ms);
    }
    const figures = [
      figure(`publish from scratch (${FORMS} forms)`, fromScratch),
      figure('publish after a change of 10 controls, empty table', afterChange),
      figure(`publish after a change of 10 controls, ${ROWS.toLocaleString('en')} rows`, afterChangeWithRows),
      figure(`designer load (formdesign/load), ${Math.round(bytes / 1024)} KiB answer`, loadSamples),
      figure('designer save (formdesign/save) of the whole definition', saveSamples),
    ];
    for (const f of figures) console.log(`${label}  ${f.call}: median ${f.medianMs} ms, p95 ${f.p95Ms} ms`);
    return { database: label, controls: countControls(controls), mainColumns: columns, figures };
  } finally {
    await app.close();
    await database.close();
  }
}

const started = Date.now();
const runs = [await measure('PGlite')];
const pgRun = await onThrowawayPostgres('tritium_bench_forms', (url, version) => measure(`PostgreSQL ${version}`, url));
if (pgRun) runs.push(pgRun);

const result = saveResult('forms', { forms: FORMS, rows: ROWS, rounds: LOAD_ROUNDS, runs });

// The "Forms" section of docs/performance.md; other sections are kept as they are.
const lines = [
  '## Forms',
  '',
  `Measured by \`npm run bench:forms\` on ${result.date.slice(0, 10)}: Node ${process.version}, ${result.cpus} × ${result.cpu ?? 'CPU'}.`,
  `A form of ${runs[0].controls} controls (sub-table columns included): 154 data controls in the main table (18 in 5 layouts and a tab;`,
  `${runs[0].mainColumns} columns with the system ones) and 2 sub-tables of 19 columns; mixed types (text, numbers, dates,`,
  'choices, people, files, associations, formulas). The change touches 10 controls: 4 added, 3 removed (empty columns, or',
  `confirmed), 3 converted (number → text, text box → text area). Publishing is measured on ${FORMS} fresh forms each;`,
  `the designer load (the draft and the published definition) ${WARMUP} warm-up then ${LOAD_ROUNDS} timed calls; every save of the`,
  'benchmark counts for the save figure. All through `app.inject`.',
  '',
  `| call | ${runs.map((r) => `${r.database} median ms | p95 ms`).join(' | ')} |`,
  `|---|${runs.map(() => '---|---').join('|')}|`,
  ...runs[0].figures.map((f, i) => `| ${f.call} | ${runs.map((r) => `${r.figures[i].medianMs} | ${r.figures[i].p95Ms}`).join(' | ')} |`),
  '',
  'Saving validates the whole definition with the control registry; publishing plans against the published definition',
  '(one counting scan per changed table), then runs the DDL in one transaction: one CREATE TABLE per table, or one',
  'ALTER TABLE per table with all drops, conversions and additions (a conversion rewrites the table once, so its cost',
  'grows with the rows; additions and drops alone do not rewrite). See docs/decisions/0006-form-design.md.',
  '',
];
writePerformanceSection('Forms', lines);
console.log(`Total ${((Date.now() - started) / 1000).toFixed(0)} s`);

/**
 * View modes benchmark (issue 23, docs/decisions/0047): the calendar's month and the kanban board over a form of
 * 100,000 records (written with one INSERT … SELECT), on PGlite and (when reachable) PostgreSQL in a throw-away
 * database. The calendar asks only its visible range (a month of about 3,300 records, answered up to the 1,000 limit
 * with the range's total; and a quiet month of a few hundred), the board its counts per column (one GROUP BY) and the
 * first 20 cards of each of its five columns; a column's next page is measured too. Calls go through `app.inject`.
 * Run: npm run bench:view-modes   (writes bench/results/view-modes.json and the "View modes" section of docs/performance.md)
 */
import { sql, type Kysely } from 'kysely';
import { treeParentIndexName } from '../packages/server/src/modules/form-design/tree-structure.ts';
import { medianAndP95, openBenchApp, registerBenchEngine, round1 } from './setup.ts';
import { onThrowawayPostgres, post, saveResult, writePerformanceSection } from './lib.ts';

const RECORDS = Number(process.env.BENCH_VIEW_RECORDS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_VIEW_ROUNDS ?? 20);
const WARMUP = 3;
const STAGES = ['待办', '进行中', '待验收', '已完成', '搁置'];

const FIELDS = [
  { type: 'textBox', code: 'Title' },
  { type: 'dropDown', code: 'Stage', options: { defaultItems: STAGES } },
  { type: 'dateTime', code: 'StartAt' },
  { type: 'dateTime', code: 'EndAt' },
  { type: 'number', code: 'Hours', options: { decimalPlaces: 0 } },
];
const base = { scope: 3, columns: [{ field: 'Title' }, { field: 'Hours' }] };

const timed = (run: () => Promise<unknown>) => medianAndP95(run, WARMUP, ROUNDS);

async function measure(label: string, databaseUrl?: string) {
  const { app, database } = await openBenchApp(databaseUrl);
  try {
    const { engineCode, headers } = await registerBenchEngine(app, '13600000023');
    const appNode = await post(app, '/v1/functionnode', { code: 'BenchViewApp', displayName: '压测应用', nodeType: 190 }, headers);
    const node = await post(app, '/v1/functionnode', { code: 'BenchViews', appCode: appNode.code, displayName: '压测任务', nodeType: 200 }, headers);
    const loaded = await post(app, '/v1/formdesign/load', { schemaCode: node.code }, headers);
    const saved = await post(app, '/v1/formdesign/save', { schemaCode: node.code, baseVersion: loaded.draft.version, definition: { attributes: { displayName: '压测任务' }, controls: FIELDS } }, headers);
    await post(app, '/v1/formdesign/publish', { schemaCode: node.code, version: saved.version }, headers);
    await post(app, '/v1/view/designer/save', {
      schemaCode: node.code,
      views: [
        { ...base, code: 'Board', title: '看板', mode: 8, settings: { groupField: 'Stage', titleField: 'Title', fields: ['Hours'], pageSize: 20 } },
        { ...base, code: 'Cal', title: '日历', mode: 1, settings: { startField: 'StartAt', endField: 'EndAt', titleField: 'Title' } },
      ],
    }, headers);
    const fresh = await post(app, '/v1/form/loaddata', { schemaCode: node.code }, headers);
    const me: string = fresh.system.CreatedBy;
    const dept: string = fresh.system.OwnerDeptId;
    const table = sql.id(`e_${engineCode}`, `i_${node.code.toLowerCase()}`);

    // Tasks spread over 30 months from 2025-01-01 (about 3,300 a month), 2 to 50 hours long; stages in turn, every
    // 50th without one.
    const t0 = Date.now();
    await sql`
      insert into ${table} ("ObjectId", "Name", "Status", "CreatedBy", "ModifiedBy", "OwnerId", "OwnerDeptId", "CreatedTime", "ModifiedTime",
        "Title", "Stage", "StartAt", "EndAt", "Hours")
      select gen_random_uuid(), '任务' || g, 1, ${me}, ${me}, ${me}, ${dept}, now() - g * interval '1 minute', now(), '任务' || g,
        case when g % 50 = 0 then null else (array['待办','进行中','待验收','已完成','搁置'])[1 + g % 5] end,
        timestamptz '2025-01-01 08:00+08' + (g * interval '13 minutes'),
        timestamptz '2025-01-01 08:00+08' + (g * interval '13 minutes') + ((2 + g % 49) * interval '1 hour'),
        2 + g % 49
      from generate_series(1, ${RECORDS}::int) g`.execute(database.db);
    await sql`analyze ${table}`.execute(database.db);
    const seedSeconds = round1((Date.now() - t0) / 1000);

    const narrowing = { schemaCode: node.code };
    const calendar = (start: string, end: string) => () => post(app, '/v1/bizdata/view/calendar', { ...narrowing, viewCode: 'Cal', start, end }, headers);
    // A month view shows six weeks.
    const busyMonth = calendar('2026-01-26T00:00:00+08:00', '2026-03-09T00:00:00+08:00');
    const week = calendar('2026-02-02T00:00:00+08:00', '2026-02-09T00:00:00+08:00');
    const board = () => post(app, '/v1/bizdata/view/kanban', { ...narrowing, viewCode: 'Board' }, headers);
    const nextPage = () => post(app, '/v1/bizdata/view/kanban/column', { ...narrowing, viewCode: 'Board', value: '进行中', pageIndex: 5 }, headers);
    const filteredBoard = () => post(app, '/v1/bizdata/view/kanban', { ...narrowing, viewCode: 'Board', filter: { field: 'Hours', operator: 'Above', value: 40 } }, headers);

    const month = await busyMonth();
    const cols = await board();
    const result = {
      database: label,
      records: RECORDS,
      seedSeconds,
      monthShown: month.list.length,
      monthTotal: month.total,
      weekTotal: (await week()).total,
      boardColumns: cols.columns.map((c: { value: unknown; count: number; list: unknown[] }) => ({ value: c.value, count: c.count, shown: c.list.length })),
      calendarMonth: await timed(busyMonth),
      calendarWeek: await timed(week),
      kanbanBoard: await timed(board),
      kanbanBoardFiltered: await timed(filteredBoard),
      kanbanNextPage: await timed(nextPage),
      ...(await withoutDateIndexes(database.db, engineCode, `i_${node.code.toLowerCase()}`, { calendarMonthNoIndex: busyMonth, calendarWeekNoIndex: week })),
    };
    console.log(label, JSON.stringify(result));
    return result;
  } finally {
    await app.close();
    await database.close();
  }
}

/** The same calendar calls once the view's date indexes are dropped (docs/decisions/0054): what they save. */
async function withoutDateIndexes(db: Kysely<any>, engineCode: string, table: string, calls: Record<'calendarMonthNoIndex' | 'calendarWeekNoIndex', () => Promise<unknown>>) {
  const schema = `e_${engineCode}`;
  for (const column of ['StartAt', 'EndAt']) await sql`drop index if exists ${sql.id(schema, treeParentIndexName(table, column))}`.execute(db);
  await sql`analyze ${sql.id(schema, table)}`.execute(db);
  return { calendarMonthNoIndex: await timed(calls.calendarMonthNoIndex), calendarWeekNoIndex: await timed(calls.calendarWeekNoIndex) };
}

const runs = [await measure('PGlite')];
const pgRun = await onThrowawayPostgres('tritium_bench_views', (url, version) => measure(`PostgreSQL ${version}`, url));
if (pgRun) runs.push(pgRun);

const result = saveResult('view-modes', { records: RECORDS, rounds: ROUNDS, runs });
type Run = (typeof runs)[number];
const ms = (r: Run, key: 'calendarMonth' | 'calendarWeek' | 'calendarMonthNoIndex' | 'calendarWeekNoIndex' | 'kanbanBoard' | 'kanbanBoardFiltered' | 'kanbanNextPage') => `${r[key].medianMs} / ${r[key].p95Ms}`;
const first = runs[0]!;
const lines = [
  '## View modes',
  '',
  `Measured by \`npm run bench:view-modes\` on ${result.date.slice(0, 10)}: Node ${process.version}, ${result.cpus} × ${result.cpu ?? 'CPU'}; the machine`,
  'was shared with other work at the time (other test runs and builds), so the figures are upper bounds.',
  `A task form of ${RECORDS.toLocaleString('en-US')} records (written with one INSERT … SELECT, then ANALYZE) with a calendar view (start, end) and a`,
  'kanban view (five stages, 20 cards a column). Calls through `app.inject`; ' + `${WARMUP} warm-up then ${ROUNDS} timed calls; median / p95 in ms.`,
  `The six weeks a month view shows hold ${first.monthTotal.toLocaleString('en-US')} records: the calendar answers the first ${first.monthShown} (the spec's limit) with`,
  `that total; a week holds ${first.weekTotal}. The board's columns: ${first.boardColumns.map((c: { value: unknown; count: number }) => `${c.value ?? '未设置'} ${c.count}`).join(', ')} — each answers its count`,
  'and its first 20 cards only.',
  '',
  `| call | ${runs.map((r) => r.database).join(' | ')} |`,
  `|---|${runs.map(() => '---').join('|')}|`,
  `| calendar: a month view (six weeks, over the 1,000 limit) | ${runs.map((r) => ms(r, 'calendarMonth')).join(' | ')} |`,
  `| calendar: a week | ${runs.map((r) => ms(r, 'calendarWeek')).join(' | ')} |`,
  `| calendar: the month, date indexes dropped | ${runs.map((r) => ms(r, 'calendarMonthNoIndex')).join(' | ')} |`,
  `| calendar: the week, date indexes dropped | ${runs.map((r) => ms(r, 'calendarWeekNoIndex')).join(' | ')} |`,
  `| kanban: the board (counts by one GROUP BY + 20 cards × 6 columns) | ${runs.map((r) => ms(r, 'kanbanBoard')).join(' | ')} |`,
  `| kanban: the board with a filter (hours > 40) | ${runs.map((r) => ms(r, 'kanbanBoardFiltered')).join(' | ')} |`,
  `| kanban: a column's sixth page | ${runs.map((r) => ms(r, 'kanbanNextPage')).join(' | ')} |`,
  '',
  'Neither call loads more than it shows: the calendar is one statement with the range as a condition (LIMIT 1,000 and',
  'the count LATERAL-joined); the board is one GROUP BY for every column\'s count (the blank column included) and one',
  'ORDER BY … LIMIT 20 per column for its first cards, without a count.',
  '',
  'Date indexes (docs/decisions/0054): saving a calendar, timeline or Gantt view gives its start and end columns a',
  'B-tree each (the hierarchy\'s `xh_` index of one column), so the range\'s conditions read index ranges instead of the',
  'whole table; the two "dropped" rows are the same calls after the bench drops those two indexes (and ANALYZE), in the',
  'same run. The stage column carries no index (a form\'s custom indexes can add one): the board scans the table, which',
  'is what its figures measure.',
  '',
  'Three shapes of the board were measured the same day (medians, PGlite / PostgreSQL, the machine busy): the query',
  'engine\'s distinct values plus a counted page per column, 823 / 1,129 ms; one statement ranking every record with',
  '`row_number()` and `count(*)` over the group column\'s partition, 4,039–7,336 / 757–927 ms (a window must sort every',
  'record, where a LIMIT keeps a top-N heap); the GROUP BY plus an uncounted top-N per column above. The last one stays',
  '(docs/decisions/0047).',
  '',
];
writePerformanceSection('View modes', lines);

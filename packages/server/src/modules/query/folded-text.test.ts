import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { engineDb, engineSchemaName } from '../../db/database.ts';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { createForm, definition, indexesOf, publish, saveDraft, twinsOf } from '../../../test/form-helpers.ts';
import { appWithStatementLog, type StatementLog } from '../../../test/statement-log.ts';
import { queueTrigramBackfill } from '../form-design/trigram-backfill.job.ts';
import { queryRecords } from './query.service.ts';

// test-databases: both — generated columns, lower() and ILIKE's case folding, trigram plans (docs/testing.md "Runs on both databases").

// "Contains" and the pattern operators on a text column read its lowered twin with LIKE (docs/decisions/0103): the
// answers must be ILIKE's for every letter PostgreSQL folds (accented, full-width, Greek), for letters it does not
// (Chinese), and for patterns holding the LIKE wildcards and the escape character.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, log: StatementLog, code: string;
const edb = () => engineDb(t.database.db, admin.engineCode) as unknown as Kysely<any>;
const schema = () => engineSchemaName(admin.engineCode);
const mainOf = async (formCode: string) =>
  (await edb().selectFrom('form_tables').select(['table_name', 'folded_columns']).where('schema_code', '=', formCode).where('grid_key', '=', '').executeTakeFirstOrThrow()) as { table_name: string; folded_columns: string[] | string };
const foldedOf = async (formCode: string) => {
  const f = (await mainOf(formCode)).folded_columns;
  return typeof f === 'string' ? (JSON.parse(f) as string[]) : f;
};

const TITLES = [
  'Alpha one', 'ALPHA TWO', 'alphabet', 'Éclair', 'éclair', 'ÉCLAIR', 'ＡＢＣ wide', 'ａｂｃ wide', 'ΣΟΦΙΑ', 'σοφία', 'Σοφός',
  '中文标题', '客户中文', '100% pure', '100 percent', 'a_b', 'axb', 'back\\slash', 'C:\\dir\\file', 'straße', 'STRASSE', '',
];
const PATTERNS = ['alpha', 'ALPHA', 'Alpha One', 'é', 'É', 'éclair', 'ａ', 'Ａ', 'ＡＢＣ', 'σ', 'Σ', 'σοφ', 'ΣΟΦ', 'ς', '中文', '客户', '%', '100%', '_', 'a_b', '\\', 'k\\s', '\\d', 'ß', 'SS', 'x'];
const OPERATORS = ['Contains', 'NotContains', 'StartWith', 'EndWith', 'NotStartWith', 'NotEndWith'] as const;

const saveTitle = async (title: string, objectId?: string) =>
  (await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', ...(objectId ? { objectId } : {}), values: { Title: title, Qty: 1 } })).objectId as string;
const titlesMatching = async (field: string, operator: string, value: string, formCode = code): Promise<string[]> => {
  const r = await a.post('/v1/bizdata/query', { schemaCode: formCode, pageIndex: 0, pageSize: -1, filter: { field, operator, value } });
  return r.list.map((row: any) => row[field] ?? '').sort();
};
/** The same through the query service (the product's pattern operators reach it from its matcher format, not the HTTP filter). */
let userId = '';
const serviceMatching = async (operator: string, value: string): Promise<string[]> => {
  const ctx = { db: t.database.db, engineCode: admin.engineCode, userId, authType: 1 };
  const r = await queryRecords(ctx as never, { schemaCode: code, pageIndex: 0, pageSize: -1, filter: { field: 'Title', operator, value } as never });
  return r.list.map((row: any) => row.Title ?? '').sort();
};
/** ILIKE's own answer, straight from the table (the definition the twin must agree with). */
async function ilike(operator: (typeof OPERATORS)[number], value: string, formCode = code, column = 'Title'): Promise<string[]> {
  const esc = value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  const pattern = operator.endsWith('StartWith') ? `${esc}%` : operator.endsWith('EndWith') ? `%${esc}` : `%${esc}%`;
  const negate = operator.startsWith('Not');
  const table = sql.id(schema(), (await mainOf(formCode)).table_name);
  const col = sql.id(column);
  const r = await sql<{ v: string | null }>`select ${col} as v from ${table} where ${negate ? sql`not coalesce(${col} ilike ${pattern}, false)` : sql`${col} ilike ${pattern}`}`.execute(t.database.db);
  return r.rows.map((row) => row.v ?? '').sort();
}

beforeAll(async () => {
  ({ t, admin, a, appCode, log } = await appWithStatementLog());
  code = (await createForm(a, appCode)).code as string;
  // Notes is marked 支持模糊搜索 (docs/decisions/0119): a text area nobody marks gets no index.
  await publish(a, code, definition([{ type: 'textBox', code: 'Title' }, { type: 'textArea', code: 'Notes', options: { searchable: true } }, { type: 'number', code: 'Qty' }]));
  for (const title of TITLES) await saveTitle(title);
  userId = (await a.post('/v1/form/loaddata', { schemaCode: code, objectId: await saveTitle('x') })).system.CreatedBy;
});
afterAll(() => t.close());

describe('lowered twins of text columns', () => {
  it('are laid on publish for the searchable text columns, recorded with the form, and carry the trigram indexes', async () => {
    const { table_name: table } = await mainOf(code);
    expect(Object.keys(await twinsOf(t, admin.engineCode, table))).toEqual(['~Name', '~SeqNo', '~Title']);
    expect(await foldedOf(code)).toEqual(['Name', 'SeqNo', 'Title']);
    const trigram = Object.values(await indexesOf(t, admin.engineCode, table)).filter((d) => d.includes('gin_trgm_ops'));
    // A text area has no twin: its index stays on its own column, which its ILIKE reads.
    expect(trigram.map((d) => /\("([^"]+)"/.exec(d)![1]).sort()).toEqual(['Notes', '~Name', '~SeqNo', '~Title']);
  });

  it('answer as ILIKE does for mixed case, accented, full-width, Greek and Chinese letters and for % _ \\', async () => {
    for (const operator of OPERATORS) {
      for (const value of PATTERNS) expect([operator, value, await serviceMatching(operator, value)]).toEqual([operator, value, await ilike(operator, value)]);
    }
    // Spot checks that the comparison above is not vacuous.
    expect(await titlesMatching('Title', 'Contains', 'é')).toEqual(['ÉCLAIR', 'Éclair', 'éclair']);
    expect(await titlesMatching('Title', 'Contains', 'Ａ')).toEqual(['ＡＢＣ wide', 'ａｂｃ wide']);
    expect(await titlesMatching('Title', 'Contains', '%')).toEqual(['100% pure']);
    expect(await titlesMatching('Title', 'Contains', '_')).toEqual(['a_b']);
    expect(await titlesMatching('Title', 'Contains', '\\')).toEqual(['C:\\dir\\file', 'back\\slash']);
  });

  it('are what the list statement reads, and the remembered statement binds each pattern anew', async () => {
    const statements = await log.of(() => titlesMatching('Title', 'Contains', 'ALPHA'));
    const list = statements.find((s) => s.includes('"~Title"'));
    expect(list).toMatch(/"m"\."~Title" like lower\(\$\d+\)/);
    expect(statements.join('\n')).not.toMatch(/ilike/i);
    // The same shape again (statement-cache.ts) with other values: each its own answer.
    expect(await titlesMatching('Title', 'Contains', 'éclair')).toEqual(['ÉCLAIR', 'Éclair', 'éclair']);
    expect(await titlesMatching('Title', 'Contains', '中文')).toEqual(['中文标题', '客户中文']);
  });

  it('follow updates of their column', async () => {
    const id = await saveTitle('Zebra Crossing');
    expect(await titlesMatching('Title', 'Contains', 'zebra')).toEqual(['Zebra Crossing']);
    await saveTitle('ÜBER Straße', id);
    expect(await titlesMatching('Title', 'Contains', 'zebra')).toEqual([]);
    expect(await titlesMatching('Title', 'Contains', 'über')).toEqual(['ÜBER Straße']);
    const { table_name: table } = await mainOf(code);
    const row = await sql<{ twin: string }>`select "~Title" as twin from ${sql.id(schema(), table)} where "ObjectId" = ${id}`.execute(t.database.db);
    expect(row.rows[0]!.twin).toBe('über straße');
  });

  it('never show in a record read, a list or a keyword search', async () => {
    const id = await saveTitle('Leak check');
    const read = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: id });
    expect(JSON.stringify(read)).not.toMatch(/"~/);
    const list = await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 5 });
    expect(JSON.stringify(list)).not.toMatch(/"~/);
    const found = await a.raw('GET', '/v1/toolkit/fulltext/search', { keyword: 'LEAK' });
    expect(JSON.stringify(found.body)).toMatch(/Leak check/);
    expect(JSON.stringify(found.body)).not.toMatch(/"~/);
  });

  it('follow a publish that adds, renames, converts and removes text controls', async () => {
    const form = (await createForm(a, appCode)).code as string;
    // The default view searches the first two text boxes; Later and Added are marked 支持模糊搜索 (docs/decisions/0119).
    await publish(a, form, definition([{ type: 'textBox', code: 'Subject' }, { type: 'textBox', code: 'Gone' }, { type: 'textBox', code: 'Later', options: { searchable: true } }]));
    await a.post('/v1/form/action/execute', { schemaCode: form, actionCode: 'Save', values: { Subject: 'Ärger', Gone: 'x', Later: '12' } });
    const table = (await mainOf(form)).table_name;
    expect(Object.keys(await twinsOf(t, admin.engineCode, table))).toEqual(['~Name', '~SeqNo', '~Subject', '~Gone', '~Later']);
    // Subject renamed (its code's case), Gone removed, Later becomes a number, Added is new.
    const changed = definition([{ type: 'textBox', code: 'subject' }, { type: 'number', code: 'Later' }, { type: 'textArea', code: 'Added', options: { searchable: true } }]);
    const version = await saveDraft(a, form, changed);
    const dry = await a.post('/v1/formdesign/publish', { schemaCode: form, version, confirm: [], dryRun: true });
    await a.post('/v1/formdesign/publish', { schemaCode: form, version, confirm: dry.changes.map((c: { key: string }) => c.key) });
    const twins = await twinsOf(t, admin.engineCode, table);
    // Added is a text area: no twin, its trigram index on its own column.
    expect(Object.keys(twins).sort()).toEqual(['~Name', '~SeqNo', '~subject']);
    expect(twins['~subject']).toMatch(/lower\(\(?"?subject"?/);
    expect(await foldedOf(form)).toEqual(['Name', 'SeqNo', 'subject']);
    expect(await titlesMatching('subject', 'Contains', 'ärg', form)).toEqual(['Ärger']);
    const trigram = Object.values(await indexesOf(t, admin.engineCode, table)).filter((d) => d.includes('gin_trgm_ops'));
    expect(trigram.map((d) => /\("([^"]+)"/.exec(d)![1]).sort()).toEqual(['Added', '~Name', '~SeqNo', '~subject']);
  });

  it('a form published before them keeps ILIKE until the backfill lays its twins', async () => {
    const form = (await createForm(a, appCode)).code as string;
    await publish(a, form, definition([{ type: 'textBox', code: 'Title' }]));
    await a.post('/v1/form/action/execute', { schemaCode: form, actionCode: 'Save', values: { Title: 'Ölpreis' } });
    const table = (await mainOf(form)).table_name;
    // As before decision 0103: no twins, the trigram indexes on the columns themselves, nothing recorded.
    await sql`alter table ${sql.id(schema(), table)} drop column "~Name", drop column "~SeqNo", drop column "~Title"`.execute(t.database.db);
    await sql`create index ${sql.id('xt_old_title')} on ${sql.id(schema(), table)} using gin ("Title" gin_trgm_ops)`.execute(t.database.db);
    await edb().updateTable('form_tables').set({ folded_columns: '[]' }).where('table_name', '=', table).execute();
    const statements = await log.of(async () => expect(await titlesMatching('Title', 'Contains', 'ÖL', form)).toEqual(['Ölpreis']));
    expect(statements.join('\n')).toMatch(/"m"\."Title" ilike \$/);
    expect(await queueTrigramBackfill(t.database.db)).toBeGreaterThanOrEqual(1);
    while (await t.app.extras.jobs.runOnce());
    expect(Object.keys(await twinsOf(t, admin.engineCode, table))).toEqual(['~Name', '~SeqNo', '~Title']);
    expect(Object.values(await indexesOf(t, admin.engineCode, table)).join()).not.toMatch(/xt_old_title/);
    const after = await log.of(async () => expect(await titlesMatching('Title', 'Contains', 'ÖL', form)).toEqual(['Ölpreis']));
    expect(after.join('\n')).toMatch(/"m"\."~Title" like lower\(\$/);
  });

  it('on PostgreSQL, a selective pattern is found through the twin\'s trigram index', async () => {
    if (!process.env.TEST_DATABASE_URL) return;
    const { table_name: table } = await mainOf(code);
    const target = sql.id(schema(), table);
    await sql`insert into ${target} ("Name", "Title") select 'n' || i, 'Record number ' || i || case when i % 5000 = 0 then ' Quetzal' else ' and some more words of text' end from generate_series(1, 30000) i`.execute(t.database.db);
    await sql`analyze ${target}`.execute(t.database.db);
    const plan = (await sql<{ 'QUERY PLAN': string }>`explain select count(*) from ${target} m where m."~Title" like lower(${'%quetzal%'})`.execute(t.database.db)).rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Bitmap Index Scan on xt_/);
    expect(await titlesMatching('Title', 'Contains', 'QUETZAL')).toHaveLength(6);
  });
});

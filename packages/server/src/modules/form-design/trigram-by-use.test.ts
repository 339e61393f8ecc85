import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { engineDb, engineSchemaName } from '../../db/database.ts';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, indexesOf, publish, twinsOf } from '../../../test/form-helpers.ts';
import { foldedColumnName, trigramIndexName } from './trigram-indexes.ts';

// test-databases: both — generated columns and trigram indexes laid and dropped by a publish (docs/testing.md "Runs on both databases").

// Trigram indexes by use (docs/decisions/0119): Name and SeqNo always; a text column only when its control is marked
// 支持模糊搜索, or a view searches it, or (a control never marked either way) its table already has one. A publish
// adds and drops them; "contains" answers the same with or without.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
const edb = () => engineDb(t.database.db, admin.engineCode) as unknown as Kysely<any>;
const tableOf = async (formCode: string) =>
  (await edb().selectFrom('form_tables').select('table_name').where('schema_code', '=', formCode).where('grid_key', '=', '').executeTakeFirstOrThrow()).table_name as string;
/** The columns a trigram index is on, twins named by their column. */
const indexedOf = async (formCode: string) => {
  const defs = Object.values(await indexesOf(t, admin.engineCode, await tableOf(formCode))).filter((d) => d.includes('gin_trgm_ops'));
  return defs.map((d) => /\("([^"]+)"/.exec(d)![1]!.replace(/^~/, '')).sort();
};
const twinnedOf = async (formCode: string) => Object.keys(await twinsOf(t, admin.engineCode, await tableOf(formCode))).map((n) => n.slice(1)).sort();
const matching = async (formCode: string, field: string, value: string) =>
  (await a.post('/v1/bizdata/query', { schemaCode: formCode, pageIndex: 0, pageSize: -1, filter: { field, operator: 'Contains', value } })).list.map((r: any) => r[field]).sort();

// No view is designed: the default view's quick search reads Name and the first two short-text fields (Title, Code).
const controls = (marks: Record<string, boolean | undefined> = {}) => [
  { type: 'textBox', code: 'Title', options: marks.Title === undefined ? {} : { searchable: marks.Title } },
  { type: 'textBox', code: 'Code', options: marks.Code === undefined ? {} : { searchable: marks.Code } },
  { type: 'textBox', code: 'Memo', options: marks.Memo === undefined ? {} : { searchable: marks.Memo } },
  { type: 'textArea', code: 'Body', options: marks.Body === undefined ? {} : { searchable: marks.Body } },
  { type: 'dropDown', code: 'Kind', options: { defaultItems: ['甲', '乙'], ...(marks.Kind === undefined ? {} : { searchable: marks.Kind }) } },
];

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
});
afterAll(() => t.close());

describe('trigram indexes by use', () => {
  it('index Name, SeqNo, what a view searches and what is marked; publishing toggles them; contains works either way', async () => {
    const code = (await createForm(a, appCode)).code as string;
    expect((await publish(a, code, definition(controls({ Body: true })))).applied).toBe(true);
    expect(await indexedOf(code)).toEqual(['Body', 'Code', 'Name', 'SeqNo', 'Title']);
    // Memo and Kind are searched by nobody: no twin, no index, nothing for an insert to write.
    expect(await twinnedOf(code)).toEqual(['Code', 'Name', 'SeqNo', 'Title']);
    for (const [i, memo] of ['红色 Apple', '蓝色 apple pie', '绿色'].entries()) {
      await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: `t${i}`, Code: `C-${i}`, Memo: memo, Body: memo, Kind: i ? '乙' : '甲' } });
    }
    // "Contains" on an unmarked column is ILIKE on the column; on a marked one the twin: the same answers.
    expect(await matching(code, 'Memo', 'APPLE')).toEqual(['红色 Apple', '蓝色 apple pie']);
    expect(await matching(code, 'Body', 'APPLE')).toEqual(['红色 Apple', '蓝色 apple pie']);
    expect(await matching(code, 'Kind', '乙')).toEqual(['乙', '乙']);

    // Marking Memo adds its twin and index; unmarking Title drops them although the default view searches it.
    await publish(a, code, definition(controls({ Body: true, Memo: true, Title: false })));
    expect(await indexedOf(code)).toEqual(['Body', 'Code', 'Memo', 'Name', 'SeqNo']);
    expect(await twinnedOf(code)).toEqual(['Code', 'Memo', 'Name', 'SeqNo']);
    expect(await matching(code, 'Memo', 'APPLE')).toEqual(['红色 Apple', '蓝色 apple pie']);
    expect(await matching(code, 'Title', 'T1')).toEqual(['t1']);
    await publish(a, code, definition(controls({ Body: false, Memo: false, Title: false, Code: false })));
    expect(await indexedOf(code)).toEqual(['Name', 'SeqNo']);
    expect(await matching(code, 'Code', 'c-2')).toEqual(['C-2']);
  });

  it("index what a designed view's quick search and fixed filter read", async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition(controls()));
    const setting = (await a.get(`/v1/view/designer/load?schemaCode=${code}`)).views[0];
    const view = { ...setting, code: 'V1', quickSearch: ['Name', 'Memo'], filter: { type: 'And', children: [{ field: 'Kind', operator: 'Contains', value: '甲' }] } };
    await a.post('/v1/view/designer/save', { schemaCode: code, views: [view] });
    await publish(a, code, definition(controls({ Title: false, Code: false })));
    expect(await indexedOf(code)).toEqual(['Kind', 'Memo', 'Name', 'SeqNo']);
  });

  it('keep the indexes a form published before the choice has, until a publish unmarks them', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition(controls()));
    // As the earlier rule laid them: every text column of the table with its twin (text areas without) and index.
    const schema = engineSchemaName(admin.engineCode);
    const table = await tableOf(code);
    await sql`alter table ${sql.id(schema, table)} add column ${sql.id(foldedColumnName('Memo'))} text generated always as (lower("Memo")) stored`.execute(t.database.db);
    for (const column of [foldedColumnName('Memo'), 'Body']) {
      await sql`create index ${sql.id(trigramIndexName(table, column))} on ${sql.id(schema, table)} using gin (${sql.id(column)} gin_trgm_ops)`.execute(t.database.db);
    }
    expect(await indexedOf(code)).toEqual(['Body', 'Code', 'Memo', 'Name', 'SeqNo', 'Title']);
    // A publish that changes something else (a number added, Code's type converted) keeps them…
    const later: { type: string; code: string; options: Record<string, unknown> }[] = [...controls(), { type: 'number', code: 'Qty', options: {} }];
    expect((await publish(a, code, definition(later))).applied).toBe(true);
    expect(await indexedOf(code)).toEqual(['Body', 'Code', 'Memo', 'Name', 'SeqNo', 'Title']);
    const converted = later.map((c) => (c.code === 'Code' ? { type: 'textArea', code: 'Code', options: {} } : c));
    await publish(a, code, definition(converted));
    expect(await indexedOf(code)).toEqual(['Body', 'Code', 'Memo', 'Name', 'SeqNo', 'Title']);
    expect(await twinnedOf(code)).toEqual(['Memo', 'Name', 'SeqNo', 'Title']);
    // …until one unmarks them.
    await publish(a, code, definition(converted.map((c) => (c.code === 'Memo' || c.code === 'Body' ? { ...c, options: { ...c.options, searchable: false } } : c))));
    expect(await indexedOf(code)).toEqual(['Code', 'Name', 'SeqNo', 'Title']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, createApp, uniqueCode, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, columnTypes, createForm, definition, engineSql, indexesOf, publish, saveDraft, tableRef, tablesLike } from '../../../test/form-helpers.ts';

// test-databases: both — publishing creates and alters tables (DDL) (docs/testing.md "Runs on both databases").

// Publishing a form definition as real tables (architecture.md §2 "Forms are real tables", docs/decisions/0006),
// checked against information_schema and pg_indexes on PGlite and on PostgreSQL.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const SYSTEM = {
  ObjectId: 'uuid', Name: 'text', Status: 'int4', CreatedBy: 'uuid', ModifiedBy: 'uuid', OwnerId: 'uuid', OwnerDeptId: 'uuid',
  CreatedTime: 'timestamptz', ModifiedTime: 'timestamptz', SeqNo: 'text', WorkflowInstanceId: 'uuid',
};
const CHILD_SYSTEM = { ObjectId: 'uuid', ParentObjectId: 'uuid', SortKey: 'int4' };

const q = (query: ReturnType<typeof sql>) => engineSql(t, query);
const newForm = async (code?: string) => (await createForm(a, appCode, code ? { code } : {})).code as string;
const ref = (table: string) => tableRef(admin.engineCode, table);
const types = (table: string) => columnTypes(t, admin.engineCode, table);
const publishRaw = (body: unknown) => a.raw('POST', '/v1/formdesign/publish', body);

describe('first publish', () => {
  it('creates the main table with the system columns and one typed column per data control; sub-tables become child tables', async () => {
    const code = await newForm();
    const def = definition([
      { type: 'textBox', code: 'CustomerName' },
      { type: 'textArea', code: 'Remark', options: { searchable: true } },
      { type: 'number', code: 'Amount' },
      { type: 'dateTime', code: 'DueDate' },
      { type: 'checkboxList', code: 'Tags' },
      { type: 'checkbox', code: 'Done' },
      { type: 'map', code: 'Place' },
      { type: 'multiUser', code: 'Watchers' },
      { type: 'associationQuery', code: 'Customer', options: { schemaCode: code } },
      { type: 'formula', code: 'Total', options: { bindType: 'String', expression: '{Amount}' } },
      { type: 'creator', code: 'CreatedBy' },
      { type: 'associatedProperty', code: 'CustomerPhone', options: { associationCode: 'Customer', sourcePropertySchema: { schemaCode: code, propertyCode: 'CustomerName', controlType: 'textBox' } } },
      { type: 'description', code: 'Intro' },
      { type: 'layout', code: 'Row1', controls: [{ type: 'textBox', code: 'InLayout', options: { searchable: true } }, { type: 'number', code: 'InLayout2' }] },
      {
        type: 'tab',
        code: 'Tabs',
        panes: [
          { title: '基本', controls: [{ type: 'dateTime', code: 'InTab' }] },
          { title: '明细', controls: [{ type: 'gridView', code: 'Lines', controls: [{ type: 'number', code: 'Price' }] }] },
        ],
      },
      { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'number', code: 'Qty' }, { type: 'attachment', code: 'Files' }] },
    ]);
    const result = await publish(a, code, def);
    const main = `i_${code.toLowerCase()}`;
    expect(result).toMatchObject({ applied: true, publishedVersion: 2 });
    expect(result.changes.map((c: { kind: string; table: string }) => [c.kind, c.table])).toEqual([
      ['createTable', main],
      ['createChildTable', `${main}__lines`],
      ['createChildTable', `${main}__items`],
    ]);
    expect(await types(main)).toEqual({
      ...SYSTEM,
      CustomerName: 'varchar(200)', Remark: 'text', Amount: 'numeric', DueDate: 'timestamptz', Tags: '_text', Done: 'bool', Place: 'jsonb',
      Watchers: '_text', Customer: 'text', Total: 'text', InLayout: 'varchar(200)', InLayout2: 'numeric', InTab: 'timestamptz',
    });
    expect(await types(`${main}__items`)).toEqual({ ...CHILD_SYSTEM, ItemName: 'varchar(200)', Qty: 'numeric', Files: 'jsonb' });
    expect(await types(`${main}__lines`)).toEqual({ ...CHILD_SYSTEM, Price: 'numeric' });
    // Besides the primary key: the lists' default order, the data scopes' department, owner and creator (each carrying
    // the columns before it, docs/decisions/0063), and trigram indexes for "contains" and full-text search on Name,
    // SeqNo, the text boxes and the text area (docs/decisions/0013, 0040).
    const mainIndexes = await indexesOf(t, admin.engineCode, main);
    const rest = code.toLowerCase();
    expect(Object.entries(mainIndexes).filter(([name]) => !name.startsWith('xt_')).sort()).toEqual([
      [`xb_${rest}`, expect.stringContaining('("CreatedBy") INCLUDE ("OwnerDeptId", "OwnerId")')],
      [`xd_${rest}`, expect.stringContaining('("OwnerDeptId")')],
      [`xk_${rest}`, expect.stringContaining('UNIQUE INDEX')],
      [`xo_${rest}`, expect.stringMatching(/"CreatedTime" DESC, "ObjectId" DESC/)],
      [`xw_${rest}`, expect.stringContaining('("OwnerId") INCLUDE ("OwnerDeptId")')],
    ]);
    // Name, SeqNo, the default view's quick search (CustomerName) and the two marked 支持模糊搜索 (docs/decisions/0119).
    expect(Object.values(mainIndexes).filter((d) => d.includes('gin_trgm_ops'))).toHaveLength(5);
    const childIndexes = await indexesOf(t, admin.engineCode, `${main}__items`);
    expect(childIndexes[`xp_${code.toLowerCase()}__items`]).toMatch(/\("ParentObjectId", "SortKey"\)/);

    // Child rows belong to a main row and go with it.
    const [row] = await q(sql`insert into ${ref(main)} ("Name", "Amount") values ('甲', 12.5) returning "ObjectId"`);
    await q(sql`insert into ${ref(`${main}__items`)} ("ParentObjectId", "ItemName", "SortKey") values (${row.ObjectId}, '螺丝', 1), (${row.ObjectId}, '螺母', 2)`);
    await expect(q(sql`insert into ${ref(`${main}__items`)} ("ParentObjectId") values (gen_random_uuid())`)).rejects.toThrow();
    await q(sql`delete from ${ref(main)}`);
    expect(await q(sql`select count(*)::int as n from ${ref(`${main}__items`)}`)).toEqual([{ n: 0 }]);
  });

  it('quotes codes that are SQL keywords or mixed case, and keeps them exactly', async () => {
    const code = await newForm(uniqueCode('Mixed_Case'));
    const keywords = ['select', 'Order', 'group', 'user', 'table', 'from', 'MixedCase', 'mixedcase2'];
    await publish(a, code, definition([...keywords.map((k) => ({ type: 'textBox', code: k })), { type: 'gridView', code: 'Where', controls: [{ type: 'number', code: 'limit' }] }]));
    const main = `i_${code.toLowerCase()}`;
    expect(Object.keys(await types(main))).toEqual([...Object.keys(SYSTEM), ...keywords]);
    await q(sql`insert into ${ref(main)} ("select", "Order", "from") values ('a', 'b', 'c')`);
    expect(await q(sql`select "select", "Order", "from" from ${ref(main)}`)).toEqual([{ select: 'a', Order: 'b', from: 'c' }]);
    expect(await types(`${main}__where`)).toEqual({ ...CHILD_SYSTEM, limit: 'numeric' });
  });

  it('works for workflow and singleton forms; a report is not a form', async () => {
    for (const nodeType of [FunctionNodeType.WorkflowModule, FunctionNodeType.SingletonModule]) {
      const node = await createForm(a, appCode, {}, nodeType);
      await publish(a, node.code, definition([{ type: 'number', code: 'N' }]));
      expect(await types(`i_${node.code.toLowerCase()}`)).toMatchObject({ N: 'numeric' });
    }
    const report = await createForm(a, appCode, {}, FunctionNodeType.ReportModule);
    for (const [url, body] of [['/v1/formdesign/load', { schemaCode: report.code }], ['/v1/formdesign/publish', { schemaCode: report.code, version: 1 }]] as const) {
      expect((await a.raw('POST', url, body)).body).toMatchObject({ successful: false, errorCode: 240001 });
    }
  });

  it('keeps names within 63 characters and never reuses a table left behind', async () => {
    const long = `L${'x'.repeat(62)}`;
    const code = await newForm(long);
    await publish(a, code, definition([{ type: 'gridView', code: `G${'y'.repeat(62)}`, controls: [{ type: 'number', code: 'N' }] }]));
    const tables = await tablesLike(t, admin.engineCode, `i_l${'x'.repeat(40)}`);
    expect(tables).toHaveLength(2);
    for (const name of tables) expect(name.length).toBeLessThanOrEqual(63);

    // A table of the same name exists already (e.g. left by a removed form): the form gets another name.
    const code2 = await newForm();
    await q(sql`create table ${ref(`i_${code2.toLowerCase()}`)} (x int)`);
    await publish(a, code2, definition([{ type: 'number', code: 'N' }]));
    const [made] = (await tablesLike(t, admin.engineCode, `i_${code2.toLowerCase()}_`)).filter((n) => n !== `i_${code2.toLowerCase()}`);
    expect(made).toMatch(new RegExp(`^i_${code2.toLowerCase()}_[0-9a-f]{8}$`));
    expect(await types(made)).toMatchObject({ N: 'numeric' });
  });
});

describe('republishing', () => {
  it('adds columns freely; dropping a column holding values needs confirmation, and a refusal changes nothing', async () => {
    const code = await newForm();
    const main = `i_${code.toLowerCase()}`;
    await publish(a, code, definition([{ type: 'textBox', code: 'A' }, { type: 'number', code: 'B' }, { type: 'textBox', code: 'Empty' }]));
    await q(sql`insert into ${ref(main)} ("A", "B") values ('a1', 1), ('a2', null), ('a3', 3)`);
    const before = await types(main);
    const version = await saveDraft(a, code, definition([{ type: 'textBox', code: 'A' }, { type: 'dateTime', code: 'C' }]));

    const dry = await a.post('/v1/formdesign/publish', { schemaCode: code, version, dryRun: true });
    expect(dry.applied).toBe(false);
    expect(dry.changes).toEqual([
      { kind: 'dropColumn', key: `${main}.B`, table: main, column: 'B', from: 'numeric', affectedRows: 2, needsConfirmation: true },
      { kind: 'dropColumn', key: `${main}.Empty`, table: main, column: 'Empty', from: 'varchar(200)', affectedRows: 0, needsConfirmation: false },
      { kind: 'addColumn', key: `${main}.C`, table: main, column: 'C', to: 'timestamptz', needsConfirmation: false },
    ]);
    const refused = await publishRaw({ schemaCode: code, version });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 240003, detail: { unconfirmed: [`${main}.B`] } });
    expect(refused.body.detail.changes).toEqual(dry.changes);
    expect(await types(main)).toEqual(before);
    expect((await a.post('/v1/formdesign/load', { schemaCode: code })).published.version).toBe(version - 1);
    expect(await q(sql`select "A", "B" from ${ref(main)} order by "A"`)).toEqual([{ A: 'a1', B: '1' }, { A: 'a2', B: null }, { A: 'a3', B: '3' }]);

    const done = await a.post('/v1/formdesign/publish', { schemaCode: code, version, confirm: [`${main}.B`] });
    expect(done).toMatchObject({ applied: true, publishedVersion: version });
    const after = await types(main);
    expect(after).toEqual({ ...SYSTEM, A: 'varchar(200)', C: 'timestamptz' });
    expect(await q(sql`select "A" from ${ref(main)} order by "A"`)).toEqual([{ A: 'a1' }, { A: 'a2' }, { A: 'a3' }]);
  });

  it('a type change keeps every value unless confirmed: convertible values convert, the others are counted first', async () => {
    const code = await newForm();
    const main = `i_${code.toLowerCase()}`;
    await publish(a, code, definition([
      { type: 'textArea', code: 'Note' },
      { type: 'textArea', code: 'Digits' },
      { type: 'textBox', code: 'Short' },
      { type: 'number', code: 'Num' },
      { type: 'dropDown', code: 'Pick' },
      { type: 'textArea', code: 'Long' },
    ]));
    await q(sql`insert into ${ref(main)} ("Note", "Digits", "Short", "Num", "Pick", "Long") values
      ('12.5', '7', 's1', 1.5, '红', ${'长'.repeat(201)}), ('abc', '', 's2', null, null, 'ok'), ('', null, null, 42, '', null)`);
    const snapshot = async () => q(sql`select "Note", "Digits", "Short", "Num", "Pick", "Long" from ${ref(main)} order by "CreatedTime", "Short"`);
    const before = await snapshot();
    const version = await saveDraft(a, code, definition([
      { type: 'number', code: 'Note' }, // text → numeric: 'abc' would not convert
      { type: 'number', code: 'Digits' }, // text → numeric: every value converts
      { type: 'textArea', code: 'Short' }, // varchar(200) → text: safe
      { type: 'textBox', code: 'Num' }, // numeric → varchar(200): fits
      { type: 'checkboxList', code: 'Pick' }, // text → text[]: safe
      { type: 'textBox', code: 'Long' }, // text → varchar(200): one value is longer
    ]));
    const refused = await publishRaw({ schemaCode: code, version });
    expect(refused.body).toMatchObject({ errorCode: 240003, detail: { unconfirmed: [`${main}.Note`, `${main}.Long`] } });
    const byColumn = Object.fromEntries(refused.body.detail.changes.map((c: { column: string }) => [c.column, c]));
    expect(byColumn.Note).toMatchObject({ kind: 'changeType', from: 'text', to: 'numeric', affectedRows: 1, needsConfirmation: true });
    expect(byColumn.Digits).toMatchObject({ kind: 'changeType', affectedRows: 0, needsConfirmation: false });
    expect(byColumn.Short).toMatchObject({ kind: 'changeType', from: 'varchar(200)', to: 'text', needsConfirmation: false });
    expect(byColumn.Long).toMatchObject({ kind: 'changeType', from: 'text', to: 'varchar(200)', affectedRows: 1, needsConfirmation: true });
    expect(await snapshot()).toEqual(before);
    expect((await types(main)).Note).toBe('text');

    // Confirming one of two is not enough.
    expect((await publishRaw({ schemaCode: code, version, confirm: [`${main}.Note`] })).body).toMatchObject({ errorCode: 240003, detail: { unconfirmed: [`${main}.Long`] } });
    expect(await snapshot()).toEqual(before);

    await a.post('/v1/formdesign/publish', { schemaCode: code, version, confirm: [`${main}.Note`, `${main}.Long`] });
    expect(await types(main)).toMatchObject({ Note: 'numeric', Digits: 'numeric', Short: 'text', Num: 'varchar(200)', Pick: '_text', Long: 'varchar(200)' });
    const after = await snapshot();
    expect(after.map((r) => r.Note)).toEqual(['12.5', null, null]);
    expect(after.map((r) => r.Digits)).toEqual(['7', null, null]);
    expect(after.map((r) => r.Short)).toEqual(['s1', 's2', null]);
    expect(after.map((r) => r.Num)).toEqual(['1.5', null, '42']);
    expect(after.map((r) => r.Pick)).toEqual([['红'], null, null]);
    expect(after.map((r) => r.Long)).toEqual(['长'.repeat(200), 'ok', null]);
  });

  it('every type change between column types converts, or is counted and confirmed: none fails half-way', async () => {
    const controlOf: Record<string, string> = { 'varchar(200)': 'textBox', text: 'textArea', numeric: 'number', timestamptz: 'dateTime', bool: 'checkbox', jsonb: 'attachment', _text: 'checkboxList' };
    const samples: Record<string, string[]> = {
      'varchar(200)': ['12.5', 'abc', 'true'],
      text: ['2026-11-22T09:00:00Z', '', 'x'.repeat(300)],
      numeric: ['1', '12.5', '0'],
      timestamptz: ['2026-11-22T09:00:00Z', '2020-01-01T00:00:00Z', '2026-11-22T09:00:00Z'],
      bool: ['true', 'false', 'true'],
      jsonb: ['{"name": "a.pdf"}', '"text"', '[1, 2]'],
      _text: ['{红,绿}', '{}', '{1}'],
    };
    const kinds = Object.keys(controlOf);
    const pairs = kinds.flatMap((from) => kinds.filter((to) => to !== from).map((to) => ({ from, to, code: `C_${kinds.indexOf(from)}_${kinds.indexOf(to)}` })));
    const code = await newForm();
    const main = `i_${code.toLowerCase()}`;
    await publish(a, code, definition(pairs.map((p) => ({ type: controlOf[p.from], code: p.code }))));
    for (let row = 0; row < 3; row++) {
      const columns = sql.join(pairs.map((p) => sql.id(p.code)));
      const values = sql.join(pairs.map((p) => sql`${samples[p.from][row]}::${sql.raw(p.from === 'varchar(200)' ? 'varchar(200)' : p.from === 'bool' ? 'boolean' : p.from === '_text' ? 'text[]' : p.from)}`));
      await q(sql`insert into ${ref(main)} (${columns}) values (${values})`);
    }
    const version = await saveDraft(a, code, definition(pairs.map((p) => ({ type: controlOf[p.to], code: p.code }))));
    const dry = await a.post('/v1/formdesign/publish', { schemaCode: code, version, dryRun: true });
    expect(dry.changes).toHaveLength(pairs.length);
    const confirm = dry.changes.filter((c: { needsConfirmation: boolean }) => c.needsConfirmation).map((c: { key: string }) => c.key);
    // Lossless ones need nothing: anything to text, text to a list, any list or value to JSON.
    for (const c of dry.changes) if (c.to === 'text' || c.to === 'jsonb') expect(c.needsConfirmation, c.key).toBe(false);
    await a.post('/v1/formdesign/publish', { schemaCode: code, version, confirm });
    const after = await types(main);
    for (const p of pairs) expect(after[p.code], p.code).toBe(p.to);
    const rows = await q(sql`select * from ${ref(main)} order by "CreatedTime", "ObjectId"`);
    expect(rows).toHaveLength(3);
    // A few conversions by value: numbers to text, text to numbers where they parse, lists to text.
    const col = (from: string, to: string) => `C_${kinds.indexOf(from)}_${kinds.indexOf(to)}`;
    expect(rows.map((r) => r[col('numeric', 'text')]).sort()).toEqual(['0', '1', '12.5']);
    expect(rows.map((r) => r[col('varchar(200)', 'numeric')])).toEqual(expect.arrayContaining(['12.5', null]));
    expect(rows.map((r) => r[col('_text', 'text')])).toEqual(expect.arrayContaining(['红;绿', '1']));
    expect(rows.map((r) => r[col('bool', 'numeric')]).sort()).toEqual(['0', '1', '1']);
  });

  it('renames a column whose code changed case, keeping its values', async () => {
    const code = await newForm();
    const main = `i_${code.toLowerCase()}`;
    await publish(a, code, definition([{ type: 'number', code: 'amount' }]));
    await q(sql`insert into ${ref(main)} ("amount") values (5)`);
    const result = await publish(a, code, definition([{ type: 'number', code: 'Amount' }]));
    expect(result.changes).toEqual([{ kind: 'renameColumn', key: `${main}.Amount`, table: main, column: 'Amount', from: 'amount', to: 'Amount', needsConfirmation: false }]);
    expect(await q(sql`select "Amount" from ${ref(main)}`)).toEqual([{ Amount: '5' }]);
  });

  it('removing a sub-table that holds rows needs confirmation; an empty one goes at once; it can come back', async () => {
    const code = await newForm();
    const main = `i_${code.toLowerCase()}`;
    const grid = (gridCode: string, controls = [{ type: 'number', code: 'Qty' }]) => ({ type: 'gridView', code: gridCode, controls });
    await publish(a, code, definition([{ type: 'textBox', code: 'Title' }, grid('Items'), grid('Notes')]));
    const [row] = await q(sql`insert into ${ref(main)} ("Title") values ('x') returning "ObjectId"`);
    await q(sql`insert into ${ref(`${main}__items`)} ("ParentObjectId", "Qty") values (${row.ObjectId}, 1), (${row.ObjectId}, 2)`);

    const version = await saveDraft(a, code, definition([{ type: 'textBox', code: 'Title' }]));
    const refused = await publishRaw({ schemaCode: code, version });
    expect(refused.body).toMatchObject({ errorCode: 240003, detail: { unconfirmed: [`${main}__items`] } });
    expect(refused.body.detail.changes).toEqual([
      { kind: 'dropChildTable', key: `${main}__items`, table: `${main}__items`, gridCode: 'Items', affectedRows: 2, needsConfirmation: true },
      { kind: 'dropChildTable', key: `${main}__notes`, table: `${main}__notes`, gridCode: 'Notes', affectedRows: 0, needsConfirmation: false },
    ]);
    expect(await tablesLike(t, admin.engineCode, main)).toEqual([main, `${main}__items`, `${main}__notes`]);

    await a.post('/v1/formdesign/publish', { schemaCode: code, version, confirm: [`${main}__items`] });
    expect(await tablesLike(t, admin.engineCode, main)).toEqual([main]);
    expect(await q(sql`select "Title" from ${ref(main)}`)).toEqual([{ Title: 'x' }]);

    await publish(a, code, definition([{ type: 'textBox', code: 'Title' }, grid('Items', [{ type: 'textBox', code: 'Other' }])]));
    expect(await types(`${main}__items`)).toEqual({ ...CHILD_SYSTEM, Other: 'varchar(200)' });
    // Columns of a sub-table change like the main table's.
    const changed = await publish(a, code, definition([{ type: 'textBox', code: 'Title' }, grid('Items', [{ type: 'textArea', code: 'Other' }, { type: 'number', code: 'Qty' }])]));
    expect(changed.changes.map((c: { kind: string; gridCode: string }) => [c.kind, c.gridCode])).toEqual([['changeType', 'Items'], ['addColumn', 'Items']]);
    expect(await types(`${main}__items`)).toEqual({ ...CHILD_SYSTEM, Other: 'text', Qty: 'numeric' });
  });

  it('answers what changed by the fields\' and sub-tables\' names', async () => {
    const code = await newForm();
    type ControlInput = Parameters<typeof definition>[0][number];
    const named = (type: string, controlCode: string, displayName: string, controls?: ControlInput[]): ControlInput => ({ type, code: controlCode, options: { displayName }, ...(controls ? { controls } : {}) });
    const first = await publish(a, code, definition([named('textBox', 'Title', '事由'), named('textArea', 'Remark', '备注'), named('textBox', 'Kind', '类别')]));
    expect(first.summary).toEqual({ added: ['事由', '备注', '类别'], removed: [], changed: [] });

    const version = await saveDraft(a, code, definition([
      named('textBox', 'Title', '事由'),
      named('number', 'Amount', '金额'),
      named('dateTime', 'Due', '日期'),
      named('textArea', 'Kind', '类别'),
      named('gridView', 'Lines', '明细', [named('number', 'Price', '单价')]),
    ]));
    const dry = await a.post('/v1/formdesign/publish', { schemaCode: code, version, dryRun: true });
    const expected = { added: ['金额', '日期', '明细'], removed: ['备注'], changed: ['类别'] };
    expect(dry.summary).toEqual(expected);
    expect((await a.post('/v1/formdesign/publish', { schemaCode: code, version })).summary).toEqual(expected);

    const again = await publish(a, code, definition([named('textBox', 'Title', '事由'), named('gridView', 'Lines', '明细', [named('number', 'Price', '单价'), named('textBox', 'Item', '品名')])]));
    expect(again.summary).toEqual({ added: ['明细.品名'], removed: ['金额', '日期', '类别'], changed: [] });
    expect((await publish(a, code, definition([named('textBox', 'Title', '事由'), named('gridView', 'Lines', '明细', [named('number', 'Price', '单价'), named('textBox', 'Item', '品名')])]))).summary).toEqual({ added: [], removed: [], changed: [] });
  });

  it('publishes only the saved draft version asked for; the published table serves meanwhile', async () => {
    const code = await newForm();
    const main = `i_${code.toLowerCase()}`;
    const first = await publish(a, code, definition([{ type: 'textBox', code: 'A' }]));
    const v2 = await saveDraft(a, code, definition([{ type: 'textBox', code: 'A' }, { type: 'number', code: 'B' }]));
    // The draft changed, the table did not.
    expect(Object.keys(await types(main))).not.toContain('B');
    const loaded = await a.post('/v1/formdesign/load', { schemaCode: code });
    expect(loaded).toMatchObject({ hasUnpublishedChanges: true, published: { version: first.publishedVersion }, draft: { version: v2 } });
    expect((await publishRaw({ schemaCode: code, version: v2 - 1 })).body).toMatchObject({ errorCode: 240002, detail: { currentVersion: v2 } });
    expect((await publishRaw({ schemaCode: code, version: v2 + 1 })).body).toMatchObject({ errorCode: 240002 });
    const done = await a.post('/v1/formdesign/publish', { schemaCode: code, version: v2 });
    expect(done).toMatchObject({ applied: true, publishedVersion: v2 });
    expect((await a.post('/v1/formdesign/load', { schemaCode: code })).hasUnpublishedChanges).toBe(false);
    // Publishing the same version again changes nothing, not even the publish time.
    const again = await a.post('/v1/formdesign/publish', { schemaCode: code, version: v2 });
    expect(again).toEqual({ ...done, changes: [], summary: { added: [], removed: [], changed: [] } });
  });
});

describe('removing forms', () => {
  it('a removed form node, group or app takes its tables with it', async () => {
    const app = (await createApp(a)).code as string;
    const sub = [{ type: 'gridView', code: 'Lines', controls: [{ type: 'number', code: 'Qty' }] }];
    const alone = (await createForm(a, app)).code as string;
    await publish(a, alone, definition([{ type: 'textBox', code: 'Title' }, ...sub]));
    const group = (await a.post('/v1/functionnode', { nodeType: FunctionNodeType.GroupModule, appCode: app, displayName: '分组一' })).code as string;
    const grouped = (await createForm(a, app, { parentCode: group })).code as string;
    await publish(a, grouped, definition([{ type: 'textBox', code: 'Title' }]));
    const last = (await createForm(a, app)).code as string;
    await publish(a, last, definition([{ type: 'textBox', code: 'Title' }, ...sub]));
    await q(sql`insert into ${ref(`i_${alone.toLowerCase()}`)} ("Title") values ('一条数据')`);

    const tables = (code: string) => tablesLike(t, admin.engineCode, `i_${code.toLowerCase()}`);
    expect(await tables(alone)).toHaveLength(2);
    await a.post('/v1/functionnode/remove', { code: alone });
    expect(await tables(alone)).toEqual([]);
    await a.post('/v1/functionnode/remove', { code: group });
    expect(await tables(grouped)).toEqual([]);
    expect(await tables(last)).toHaveLength(2);
    await a.post('/v1/functionnode/remove', { code: app });
    expect(await tables(last)).toEqual([]);
  });
});

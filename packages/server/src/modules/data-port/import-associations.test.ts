import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createTestApp, openTestDatabase, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';
import { statementLog } from '../../../test/statement-log.ts';
import { download, importFile, rowsOfXlsx, xlsxOf } from './data-port.fixtures.ts';

// test-databases: both — the batch's association read runs in the batch's transaction (docs/testing.md "Runs on both databases").
// An import's association choices read set-wise (docs/decisions/0135): each row is accepted or refused as a save would
// (Effective, within the data range, in the association's form, readable by the importer, of this engine), the mapped
// fields filled, and the reads of the association's form do not grow with the batch's rows.

const log = statementLog();
let t: TestApp, dataDir: string, admin: Person, a: OrgClient, appCode: string;
let customers: string, suppliers: string, orders: string;
const ids: Record<string, string> = {};
const MADE_UP = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-import-assoc-'));
  t = await createTestApp({ config: { dataDir }, database: await openTestDatabase({ onQuery: log.onQuery }) });
  admin = await registerPerson(t.app, { userName: '王管理' });
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code as string;
  customers = (await createForm(a, appCode)).code as string;
  await publish(a, customers, definition([{ type: 'textBox', code: 'CustName' }, { type: 'textBox', code: 'Phone' }, { type: 'dropDown', code: 'Level', options: { defaultItems: ['普通', 'VIP'] } }], { nameSchema: '{CustName}' }));
  for (const [name, level, action] of [['甲', 'VIP', 'Submit'], ['乙', 'VIP', 'Submit'], ['丙普通', '普通', 'Submit'], ['丁草稿', 'VIP', 'Save']] as const) {
    ids[name] = (await a.post('/v1/form/action/execute', { schemaCode: customers, actionCode: action, values: { CustName: name, Phone: `138${name.length}`, Level: level } })).objectId;
  }
  suppliers = (await createForm(a, appCode)).code as string;
  await publish(a, suppliers, definition([{ type: 'textBox', code: 'SupName' }]));
  ids.supplier = (await a.post('/v1/form/action/execute', { schemaCode: suppliers, actionCode: 'Submit', values: { SupName: '供应商' } })).objectId;
  // A customer of another engine (its own administrator's).
  const other = await registerPerson(t.app);
  const o = nodeClient(t.app, other);
  const otherApp = (await createApp(o)).code as string;
  const otherCustomers = (await createForm(o, otherApp)).code as string;
  await publish(o, otherCustomers, definition([{ type: 'textBox', code: 'CustName' }]));
  ids.otherEngine = (await o.post('/v1/form/action/execute', { schemaCode: otherCustomers, actionCode: 'Submit', values: { CustName: '外' } })).objectId;
  orders = (await createForm(a, appCode)).code as string;
  await publish(a, orders, definition([
    { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
    { type: 'associationQuery', code: 'Customer', options: { displayName: '客户', schemaCode: customers, associationFilter: '{Level} = "VIP"', mappingControls: { CustPhone: 'Phone' } } },
    { type: 'textBox', code: 'CustPhone', options: { displayName: '电话' } },
  ]));
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const HEAD = ['标题', '客户'];
const xlsx = (rows: unknown[][]) => xlsxOf([HEAD, ...rows]);

async function stored(titles: string[]) {
  return engineSql<{ Title: string; Customer: string | null; CustPhone: string | null }>(
    t,
    sql`select "Title", "Customer", "CustPhone" from ${tableRef(admin.engineCode, `i_${orders.toLowerCase()}`)} where "Title" in (${sql.join(titles)}) order by "Title"`,
  );
}

async function reasons(c: OrgClient, taskId: string) {
  const rows = await rowsOfXlsx(await download(t, c, taskId, 'ErrorReport'));
  return Object.fromEntries(rows.slice(1).map((r) => [String(r[0]), String(r[HEAD.length])]));
}

/** The statements of an import that read the customers' table. */
const customerReads = (seen: string[]) => seen.filter((s) => s.toLowerCase().includes(`i_${customers.toLowerCase()}`)).length;

describe('an import batch with association values', () => {
  it('accepts and fills the records the association offers and refuses every other choice per row, as a save does', async () => {
    let done!: Record<string, unknown>;
    const rows = [
      ['r1 甲', ids['甲']], ['r2 乙', ids['乙']], ['r3 普通', ids['丙普通']], ['r4 草稿', ids['丁草稿']], ['r5 编造', MADE_UP],
      ['r6 他表', ids.supplier], ['r7 他企业', ids.otherEngine], ['r8 空', null], ['r9 甲', ids['甲']],
    ];
    await log.of(async () => (done = await importFile(t, a, admin, orders, await xlsx(rows))));
    expect(done).toMatchObject({ state: 'Finished', inserted: 4, rejected: 5 });
    expect(await stored(rows.map((r) => r[0] as string))).toEqual([
      { Title: 'r1 甲', Customer: ids['甲'], CustPhone: '1381' },
      { Title: 'r2 乙', Customer: ids['乙'], CustPhone: '1381' },
      { Title: 'r8 空', Customer: null, CustPhone: null },
      { Title: 'r9 甲', Customer: ids['甲'], CustPhone: '1381' },
    ]);
    const why = await reasons(a, String(done.taskId));
    expect(Object.keys(why).sort()).toEqual(['r3 普通', 'r4 草稿', 'r5 编造', 'r6 他表', 'r7 他企业']);
    for (const reason of Object.values(why)) expect(reason).toContain('所选数据不在关联表单的可选范围内');
  });

  it('refuses every choice of an importer who may not open the association\'s form', async () => {
    const member = await addMember(t, admin, { name: '李四' });
    const m = nodeClient(t.app, member);
    await grant(a, orders, member.userId, 'create');
    await grant(a, customers, member.userId, 'none');
    const done = await importFile(t, m, member, orders, await xlsx([['m1 甲', ids['甲']], ['m2 空', null]]));
    expect(done).toMatchObject({ state: 'Finished', inserted: 1, rejected: 1 });
    expect(Object.keys(await reasons(m, String(done.taskId)))).toEqual(['m1 甲']);
    expect((await stored(['m1 甲', 'm2 空'])).map((r) => r.Title)).toEqual(['m2 空']);
  });

  it('reads the association\'s form as often for 60 rows as for 3', async () => {
    const file = (n: number, tag: string) => xlsx(Array.from({ length: n }, (_, i) => [`${tag}${i}`, [ids['甲'], ids['乙'], ids['丁草稿']][i % 3]]));
    const small = await file(3, 's');
    const large = await file(60, 'l');
    let few!: Record<string, unknown>, many!: Record<string, unknown>;
    const fewReads = customerReads(await log.of(async () => (few = await importFile(t, a, admin, orders, small))));
    const manyReads = customerReads(await log.of(async () => (many = await importFile(t, a, admin, orders, large))));
    expect(few).toMatchObject({ inserted: 2, rejected: 1 });
    expect(many).toMatchObject({ inserted: 40, rejected: 20 });
    expect(fewReads).toBeGreaterThan(0);
    // One read of the chosen customers a batch, whatever its rows (each row read them once before: 3 and 60).
    expect(manyReads).toBe(fewReads);
  });

  it('checks a sub-table\'s association per row from one read of the batch', async () => {
    const lines = (await createForm(a, appCode)).code as string;
    await publish(a, lines, definition([
      { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
      { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [
        { type: 'textBox', code: 'Item', options: { displayName: '品名' } },
        { type: 'associationQuery', code: 'Cust', options: { displayName: '客户', schemaCode: customers, mappingControls: { Phone: 'Phone' } } },
        { type: 'textBox', code: 'Phone', options: { displayName: '电话' } },
      ] },
    ]));
    const head = ['标题', '明细.品名', '明细.客户'];
    const rows = Array.from({ length: 8 }, (_, i) => [[`g${i}`, 'x', ids['甲']], [null, 'y', i === 5 ? ids['丁草稿'] : ids['乙']]]).flat();
    let done!: Record<string, unknown>;
    const reads = customerReads(await log.of(async () => (done = await importFile(t, a, admin, lines, await xlsxOf([head, ...rows])))));
    expect(done).toMatchObject({ state: 'Finished', inserted: 7, rejected: 1 });
    const report = await rowsOfXlsx(await download(t, a, String(done.taskId), 'ErrorReport'));
    expect(report.slice(1).map((r) => [r[0], r[1]])).toEqual([['g5', 'x'], [null, 'y']]);
    expect(String(report[1]![3])).toContain('所选数据不在关联表单的可选范围内');
    const stored = await engineSql<{ Cust: string; Phone: string }>(t, sql`select "Cust", "Phone" from ${tableRef(admin.engineCode, `i_${lines.toLowerCase()}__lines`)}`);
    expect(stored.length).toBe(14);
    expect(new Set(stored.map((r) => `${r.Cust === ids['甲'] || r.Cust === ids['乙']}:${r.Phone}`))).toEqual(new Set(['true:1381']));
    // 16 rows chose a customer: one read for all (with the row-by-row check, one a row).
    expect(reads).toBeLessThan(3);
  });
});

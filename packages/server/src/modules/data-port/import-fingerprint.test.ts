import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import type { Person } from '../../../test/node-helpers.ts';
import { createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { importFile, portApp, xlsxOf, type PortApp } from './data-port.fixtures.ts';
import { fingerprints, keepImported, mainColumns } from './import-images.ts';

// test-databases: both — the fingerprints' text is the database's own JSON (docs/testing.md "Runs on both databases").

// The fingerprints an import keeps of its records (docs/decisions/0031) are worked out from the table's columns less
// the lowered twins, without a regular expression per row (decision 0133). They must be the very hashes a roll back
// works out later the regular expression's way, or the roll back would refuse the import's own unchanged records;
// and a column list that no longer matches the table (a republish between two batches) must not be used.

let t: TestApp, port: PortApp, admin: Person;
let code: string;
let form: RuntimeForm;
let taskId: string;

const FORM = definition([
  { type: 'textBox', code: 'Code', options: { displayName: '编号' } },
  { type: 'number', code: 'Qty', options: { displayName: '数量', decimalPlaces: 2 } },
  { type: 'dateTime', code: 'Day', options: { displayName: '日期' } },
  { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [{ type: 'textBox', code: 'Item', options: { displayName: '品名' } }] },
]);

beforeAll(async () => {
  port = await portApp('tritium-fingerprint-');
  ({ t, admin } = port);
  code = (await createForm(port.a, port.appCode)).code as string;
  await publish(port.a, code, FORM);
  // Quotes, backslashes and a twin-like text inside values: what the regular expression must not cut.
  const done = await importFile(t, port.a, admin, code, await xlsxOf([
    ['编号', '数量', '日期', '明细.品名'],
    ['A"1\\', 1.5, '2024-01-02 03:04:05', '螺丝,"~x":null'],
    ['B2', null, null, null],
    ['C,"~Name":"c"', -7, '2025-12-31', '垫片'],
  ]));
  expect(done).toMatchObject({ state: 'Finished', inserted: 3 });
  taskId = done.taskId as string;
  const tables = await engineSql<{ grid_key: string; table_name: string }>(t, sql`select grid_key, table_name from ${tableRef(admin.engineCode, 'form_tables')} where schema_code = ${code}`);
  // Sub-tables are keyed by the grid's code in lower case.
  const tableOf = (key: string) => tables.find((r) => r.grid_key === key.toLowerCase())!.table_name;
  form = { mainTable: tableOf(''), grids: [{ code: 'Lines', table: tableOf('Lines') }] } as unknown as RuntimeForm;
});
afterAll(() => port.close());

const edb = () => engineDb(t.database.db, admin.engineCode);
const kept = async () =>
  new Map((await engineSql<{ object_id: string; after_hash: string }>(t, sql`select object_id::text, after_hash from ${tableRef(admin.engineCode, 'data_import_objects')} where task_id = ${taskId}`)).map((r) => [r.object_id, r.after_hash]));

describe("an import's fingerprints", () => {
  it('are the hashes a roll back works out the regular expression’s way', async () => {
    const hashes = await kept();
    expect(hashes.size).toBe(3);
    const now = await fingerprints(edb(), form, [...hashes.keys()]);
    for (const [id, hash] of hashes) expect(now.get(id)).toBe(hash);
    // The table has twins (the columns left out), so the two texts are worked out differently.
    const columns = await mainColumns(edb(), admin.engineCode, form);
    expect(columns).toContain('Code');
    expect(columns.some((c) => c.startsWith('~'))).toBe(false);
    const all = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from information_schema.columns where table_schema = ${`e_${admin.engineCode}`} and table_name = ${form.mainTable}`);
    expect(all[0]!.n).toBeGreaterThan(columns.length);
  });

  it('fall back to the regular expression when the column list no longer matches the table', async () => {
    const hashes = await kept();
    const ids = [...hashes.keys()];
    const columns = await mainColumns(edb(), admin.engineCode, form);
    const stale = columns.filter((c) => c !== 'Qty');
    // Used as it is, the stale list would give another text: the check is what keeps the hashes right.
    const texts = await engineSql<{ same: boolean }>(t, sql`select (select row_to_json(r)::text from (select ${sql.join(stale.map((c) => sql.ref(`m.${c}`)))}) r)
        = regexp_replace(row_to_json(m)::text, ',"~[^"]*":(null|"([^"\\\\]|\\\\.)*")', '', 'g') as same
      from ${tableRef(admin.engineCode, form.mainTable)} m`);
    expect(texts.map((r) => r.same)).toEqual([false, false, false]);
    // Renewed with the stale list (a later write of the same task renews the fingerprint), they stay right.
    await keepImported(edb(), admin.engineCode, form, taskId, ids.map((objectId, i) => ({ objectId, rowNo: 100 + i, action: 'insert' as const })), new Map(), stale);
    const renewed = await kept();
    const now = await fingerprints(edb(), form, ids);
    for (const id of ids) expect(renewed.get(id)).toBe(now.get(id));
  });
});

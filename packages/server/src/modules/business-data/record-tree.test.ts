import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { TREE_LIMIT_MESSAGE } from '@tritium/shared/constants/limits';
import { type TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';

// test-databases: both — recursive queries over tree forms (docs/testing.md "Runs on both databases").

// Saving records of a tree-structured form (docs/decisions/0023) on PGlite and PostgreSQL: a parent that makes a
// cycle, a level past 10 and the 10,001st record are refused with the catalogue's errors and the spec's message.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const q = (query: ReturnType<typeof sql>) => engineSql(t, query);

async function treeForm(treeOn = true) {
  const code = (await createForm(a, appCode, { displayName: '部门' })).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Title', options: { displayName: '名称' } },
    { type: 'associationQuery', code: 'Parent', options: { displayName: '上级部门', schemaCode: code } },
  ], { isTreeStructure: treeOn, treeStructureControlCode: 'Parent' }));
  return { code, table: tableRef(admin.engineCode, `i_${code.toLowerCase()}`) };
}

const save = (schemaCode: string, values: Record<string, unknown>, objectId?: string) =>
  a.raw('POST', '/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values, ...(objectId ? { objectId } : {}) });
const idOf = (r: { body: any }) => r.body.data.objectId as string;

/** A chain of `n` records under one root, written in SQL; answers their ids, root first. */
async function chain(table: ReturnType<typeof tableRef>, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const [row] = await q(sql`insert into ${table} ("Title", "Parent", "Status") values (${`L${i + 1}`}, ${ids[i - 1] ?? null}, 1) returning "ObjectId"::text as id`);
    ids.push(row.id as string);
  }
  return ids;
}

describe('tree form saves', () => {
  it('keeps parents, and refuses the record itself or a descendant as its parent', async () => {
    const { code } = await treeForm();
    const root = idOf(await save(code, { Title: '总部' }));
    const child = idOf(await save(code, { Title: '华东', Parent: root }));
    const grandchild = idOf(await save(code, { Title: '上海', Parent: child }));
    expect((await save(code, { Title: '上海', Parent: root }, grandchild)).body.successful).toBe(true);
    const self = await save(code, { Title: '华东', Parent: child }, child);
    expect(self.body).toMatchObject({ successful: false, errorCode: 250090 });
    const cycle = await save(code, { Title: '总部', Parent: grandchild }, root);
    expect(cycle.body).toMatchObject({ successful: false, errorCode: 250090, detail: { issues: [{ path: 'values.Parent' }] } });
    const missing = await save(code, { Title: '孤儿', Parent: '0192aaaa-0000-7000-8000-0000000000ff' });
    expect(missing.body.successful).toBe(false);
  });

  it('refuses a record on level 11, and a move that takes a subtree past level 10', async () => {
    const { code, table } = await treeForm();
    const ids = await chain(table, 10);
    const deep = await save(code, { Title: 'L11', Parent: ids[9] });
    expect(deep.body).toMatchObject({ successful: false, errorCode: 250091, errorMessage: TREE_LIMIT_MESSAGE });
    expect((await save(code, { Title: 'L10b', Parent: ids[8] })).body.successful).toBe(true);
    // A record with a child (height 2) fits under level 8, not under level 9.
    const top = idOf(await save(code, { Title: 'A' }));
    await save(code, { Title: 'B', Parent: top });
    expect((await save(code, { Title: 'A', Parent: ids[7] }, top)).body.successful).toBe(true);
    expect((await save(code, { Title: 'A', Parent: ids[8] }, top)).body).toMatchObject({ errorCode: 250091 });
  });

  it('refuses the 10,001st record with the spec message; changing records goes on', async () => {
    const { code, table } = await treeForm();
    await q(sql`insert into ${table} ("Title") select 'r' || g from generate_series(1, 9999) g`);
    const last = await save(code, { Title: '第10000条' });
    expect(last.body.successful).toBe(true);
    const refused = await save(code, { Title: '第10001条' });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 250092, errorMessage: TREE_LIMIT_MESSAGE });
    expect((await save(code, { Title: '改名' }, idOf(last))).body.successful).toBe(true);
  });

  it('checks nothing while tree display is off', async () => {
    const { code, table } = await treeForm(false);
    const ids = await chain(table, 10);
    const r = await save(code, { Title: 'L11', Parent: ids[9] });
    expect(r.body).toMatchObject({ successful: true });
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { engineDb, engineSchemaName } from '../../db/database.ts';
import { creatorIndexName, up as addScopeIndexes } from '../../db/migrations/engine/2026-11-27T0100_scope-count-indexes.ts';
import { systemIndexNames } from '../form-design/table-names.ts';
import type { TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, grant, nodeClient, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import type { DataScope } from '@tritium/shared/constants/org';

// test-databases: both — the scoped count's SQL (docs/decisions/0063) must agree on PGlite and PostgreSQL.

// A member's scoped list and total against a brute-force filter of the seeded records (docs/decisions/0063): the total
// is counted as disjoint branches (own department, owner, creator, flow), the page with the one "or"; both must be
// exactly the records the scopes allow, for every union of scopes, with and without a filter, and on a form with a
// user control (where the count keeps the "or").

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
let me: InvitedMember, meClient: OrgClient, other: string, third: string;
let mine: string, near: string, far: string;

interface Seed { id: string; owner: string; dept: string | null; creator: string; inFlow: boolean; handler: string | null; kind: string }
const ALL: DataScope[] = ['own', 'ownDept', 'relevant', 'ownAndRelevant', 'ownAndOwnDept'];

const edb = () => engineDb(t.database.db, admin.engineCode) as unknown as Kysely<any>;

/** What a brute-force reading of §6 lets the member see. */
function allowed(s: Seed, scopes: readonly DataScope[], myDepts: readonly string[]): boolean {
  const own = s.owner === me.userId;
  const ownDept = s.dept != null && myDepts.includes(s.dept);
  const relevant = s.creator === me.userId || own || s.inFlow || s.handler === me.userId;
  return scopes.some((scope) => ({ own, ownDept, relevant, ownAndRelevant: own || relevant, ownAndOwnDept: own || ownDept, all: true })[scope]);
}

/** A form and 48 records covering every mix of owner, owner department, creator, flow and user field. */
async function seedForm(withHandler: boolean) {
  const code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Title' },
    { type: 'textBox', code: 'Kind' },
    ...(withHandler ? [{ type: 'user', code: 'Handler' }] : []),
  ]));
  const table = `i_${code.toLowerCase()}`;
  const seeds: Seed[] = [];
  const people = [me.userId, other, third];
  const depts = [mine, near, far, null];
  let n = 0;
  for (const owner of people) for (const dept of depts) for (const creator of [me.userId, other]) for (const inFlow of [false, true]) {
    n += 1;
    seeds.push({ id: randomUUID(), owner, dept, creator, inFlow: inFlow && n % 3 !== 0, handler: withHandler && n % 5 === 0 ? me.userId : null, kind: n % 2 ? 'x' : 'y' });
  }
  await edb().insertInto(table).values(seeds.map((s, i) => ({
    ObjectId: s.id, Title: `R${i}`, Kind: s.kind, OwnerId: s.owner, OwnerDeptId: s.dept, CreatedBy: s.creator, ModifiedBy: s.creator, Status: 1,
    CreatedTime: new Date(Date.UTC(2026, 0, 1, 0, i)), ...(withHandler ? { Handler: s.handler } : {}),
  }))).execute();
  // The member's part in a flow: an instance of each record with a work item of theirs or of someone else's.
  await edb().insertInto('wf_templates').values({ schema_code: code, version: 1, definition: JSON.stringify({ activities: [] }), published_by: other }).execute();
  const flows = seeds.map((s) => ({ s, instance: randomUUID(), token: randomUUID() }));
  await edb().insertInto('wf_instances').values(flows.map((f) => ({ id: f.instance, schema_code: code, object_id: f.s.id, template_version: 1, originator: other, state: 'Running' }))).execute();
  await edb().insertInto('wf_tokens').values(flows.map((f) => ({ id: f.token, instance_id: f.instance, seq: 1, activity_code: 'A1', state: 'Running' }))).execute();
  await edb().insertInto('wf_work_items').values(flows.map((f) => ({ id: randomUUID(), instance_id: f.instance, token_id: f.token, activity_code: 'A1', item_type: 'approve', participant: f.s.inFlow ? me.userId : other, state: 'Working' }))).execute();
  return { code, seeds };
}

async function groups(code: string, scopes: readonly DataScope[]) {
  const existing = await a.post('/v1/form/permission/group/list', { schemaCode: code });
  for (const g of existing.list) await a.post('/v1/form/permission/group/remove', { schemaCode: code, id: g.id });
  for (const [i, viewScope] of scopes.entries()) {
    await a.post('/v1/form/permission/group/save', { schemaCode: code, group: { name: `组${i}`, members: { users: [me.userId] }, actions: ['view'], viewScope, editScope: 'own' } });
  }
}

async function seen(code: string, body: Record<string, unknown> = {}) {
  const res = await meClient.raw('POST', '/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: -1, ...body });
  expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
  const first = await meClient.raw('POST', '/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 5, ...body });
  return { ids: (res.body.data.list as { ObjectId: string }[]).map((r) => r.ObjectId).sort(), total: res.body.data.total as number, pageTotal: first.body.data.total as number };
}

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  const company = await companyIdOf(t, admin.engineCode);
  mine = (await a.post('/v1/org/department/create', { parentId: company, name: '一部' })).id;
  near = (await a.post('/v1/org/department/create', { parentId: company, name: '二部' })).id;
  far = (await a.post('/v1/org/department/create', { parentId: company, name: '三部' })).id;
  me = await addInvitedMember(t, admin, { name: '成员', departmentIds: [mine, near] });
  other = (await addInvitedMember(t, admin, { name: '别人', departmentIds: [far] })).userId;
  third = (await addInvitedMember(t, admin, { name: '第三人', departmentIds: [near] })).userId;
  await grant(a, appCode, me.userId, 'access');
  meClient = nodeClient(t.app, me);
});
afterAll(() => t.close());

// Every single scope and every pair of scopes, then all five at once.
const unions: DataScope[][] = [...ALL.map((s) => [s]), ...ALL.flatMap((s, i) => ALL.slice(i + 1).map((u) => [s, u])), ALL];

describe("a member's scoped list and total", () => {
  for (const withHandler of [false, true]) {
    it(`equal a brute-force filter for every union of scopes${withHandler ? ', on a form with a user control' : ''}`, async () => {
      const { code, seeds } = await seedForm(withHandler);
      const myDepts = [mine, near];
      const faults: string[] = [];
      for (const scopes of unions) {
        await groups(code, scopes);
        const expected = seeds.filter((s) => allowed(s, scopes, myDepts));
        const got = await seen(code);
        const want = expected.map((s) => s.id).sort();
        if (JSON.stringify(got.ids) !== JSON.stringify(want) || got.total !== want.length || got.pageTotal !== want.length) {
          faults.push(`${scopes.join('+')}: ${got.ids.length} rows, total ${got.total}/${got.pageTotal}, expected ${want.length}`);
        }
        // A filter and a view's requested scope narrow within the permitted ones, in the total too.
        const kindX = await seen(code, { filter: { field: 'Kind', operator: 'Equal', value: 'x' }, scope: 'ownAndOwnDept' });
        const wantX = expected.filter((s) => s.kind === 'x' && allowed(s, ['ownAndOwnDept'], myDepts)).length;
        if (kindX.total !== wantX || kindX.pageTotal !== wantX || kindX.ids.length !== wantX) faults.push(`${scopes.join('+')} with a filter: ${kindX.pageTotal}, expected ${wantX}`);
      }
      expect(faults).toEqual([]);
      // The seeds are not trivial: some records are outside every scope, and the union is more than any one scope.
      expect(seeds.filter((s) => !allowed(s, ALL, myDepts)).length).toBeGreaterThan(0);
    });
  }
});

describe('forms published before the creator index', () => {
  it('get it from the engine migration, once', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([{ type: 'textBox', code: 'Title' }]));
    const schema = engineSchemaName(admin.engineCode);
    const table = `i_${code.toLowerCase()}`;
    const name = systemIndexNames(table).creator;
    const indexOf = async () => (await sql<{ def: string }>`select indexdef as def from pg_indexes where schemaname = ${schema} and indexname = ${name}`.execute(t.database.db)).rows[0]?.def;
    expect(await indexOf()).toContain('("CreatedBy") INCLUDE ("OwnerDeptId", "OwnerId")');
    await sql`drop index ${sql.id(schema, name)}`.execute(t.database.db);
    expect(await indexOf()).toBeUndefined();
    await addScopeIndexes(t.database.db.withSchema(schema) as unknown as Kysely<any>);
    expect(await indexOf()).toContain('("CreatedBy") INCLUDE ("OwnerDeptId", "OwnerId")');
    await addScopeIndexes(t.database.db.withSchema(schema) as unknown as Kysely<any>);
    // The migration names it as publishing does, also past PostgreSQL's 63 characters.
    for (const long of [table, `i_${'a'.repeat(60)}`, `i_${'b'.repeat(61)}_1`]) expect(creatorIndexName(long)).toBe(systemIndexNames(long).creator);
  });
});

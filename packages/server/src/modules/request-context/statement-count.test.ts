import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { appWithStatementLog, type StatementLog } from '../../../test/statement-log.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';

// The statements one authenticated request costs, counted through the database's onQuery hook (docs/decisions/0032).
// The bounds hold the request context to at most one statement, so the count cannot silently grow back.

let t: TestApp, admin: Person, a: OrgClient, secret: string, appCode: string;
const SCHEMA = 'D000032count';
const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'number', code: 'Amount' },
  { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }] },
]);

let log: StatementLog;
const statementsOf = (action: () => Promise<unknown>) => log.of(action);

beforeAll(async () => {
  ({ log, t, admin, a, appCode } = await appWithStatementLog());
  await createForm(a, appCode, { code: SCHEMA });
  await publish(a, SCHEMA, FORM);
  secret = (await issueSecret(a)).value;
});
afterAll(async () => {
  await t.close();
  await t.database.close();
});

const list = () => a.post('/v1/bizdata/query', { schemaCode: SCHEMA, pageIndex: 0, pageSize: 20 });
const create = () => a.post('/v1/form/action/execute', { schemaCode: SCHEMA, actionCode: 'Submit', values: { Title: '计数', Amount: 1 } });
const createMany = async () => {
  const res = await invokeApi(t.app, admin.engineCode, secret, {
    ActionName: 'CreateBizObjects',
    SchemaCode: SCHEMA,
    BizObjectArray: Array.from({ length: 100 }, (_, i) => JSON.stringify({ Title: `批量${i}`, Amount: i })),
    IsSubmit: 'true',
  });
  expect(res.body.Successful).toBe(true);
};

/** Statements that read who the caller is, their engine, roles, nodes or form definitions. */
const CONTEXT = /revoked_tokens|platform"?\."?(accounts|memberships|engines)|org_role_members|function_nodes|node_permissions|form_schemas|form_tables|engine_secrets/;
const contextOf = (statements: string[]) => statements.filter((s) => CONTEXT.test(s) && !/^\s*(insert|update|delete)/i.test(s));

describe('statements per request', () => {
  it('a list, a single create and a CreateBizObjects of 100 each read their context in one statement', async () => {
    // Warm: the first call of each kind fills the caches.
    await list();
    await create();
    await createMany();
    const listed = await statementsOf(list);
    const created = await statementsOf(create);
    const many = await statementsOf(createMany);
    // Before the request context (docs/decisions/0032): 11, 18 and 809 statements, 10 of them context (9 for the
    // open API). Then 2, 9 and 8 (docs/decisions/0033: the batch written set-wise). Then 2, 4 and 4: the caller's main
    // department comes with the context statement, the published rules from the request context's cache, the record
    // is read back only when it has rules to run, and a secret's use time is written once a minute (0058). Now the
    // counter bump, the records, their sub-table rows and their data-log rows are one statement (0095): the context
    // and that write — for one record or a hundred.
    expect(contextOf(listed)).toHaveLength(1);
    expect(contextOf(created)).toHaveLength(1);
    expect(contextOf(many)).toHaveLength(1);
    expect(listed.length).toBeLessThanOrEqual(2);
    expect(created.length).toBeLessThanOrEqual(2);
    expect(many.length).toBeLessThanOrEqual(2);
    for (const statements of [created, many]) {
      const write = statements.filter((s) => !contextOf([s]).length);
      expect(write).toHaveLength(1);
      expect(write[0]).toMatch(/form_seq_no[\s\S]*"i_[^"]*"[\s\S]*form_data_logs/);
    }
    // The grid's rows are written by the same statement when a record has some.
    const withRows = () => a.post('/v1/form/action/execute', { schemaCode: SCHEMA, actionCode: 'Submit', values: { Title: '明细', Amount: 2 }, children: { Items: [{ ItemName: '甲' }, { ItemName: '乙' }] } });
    const rows = await statementsOf(withRows);
    expect(rows).toHaveLength(2);
    expect(rows.filter((s) => /__items/i.test(s))).toHaveLength(1);
  });

  it('a member reads no more than an Administrator', async () => {
    const member = await addMember(t, admin);
    await grant(a, appCode, member.userId, 'create');
    const m = nodeClient(t.app, member);
    const memberList = () => m.post('/v1/bizdata/query', { schemaCode: SCHEMA, pageIndex: 0, pageSize: 20 });
    await memberList();
    const listed = await statementsOf(memberList);
    expect(contextOf(listed)).toHaveLength(1);
    expect(listed.length).toBeLessThanOrEqual(2);
  });
});

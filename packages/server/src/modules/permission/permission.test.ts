import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import { EXTERNAL_ROOT_NODE_ID } from '@tritium/shared/constants/org';

// test-databases: both — data scopes compiled to SQL (docs/testing.md "Runs on both databases").

// Form permissions (issue 19, docs/decisions/0037) through the API on PGlite and PostgreSQL: permission groups by
// department (and below), user and role; view and edit scopes; hidden and read-only fields; the union of groups;
// forms without groups as before; only the app's administrators edit the groups.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
type Member = Awaited<ReturnType<typeof addMember>> & { c: OrgClient };
let alice: Member, bob: Member, carol: Member, dave: Member, erin: Member;
let sales: string, east: string, support: string;
const ids: Record<string, string> = {};

const query = (c: OrgClient, body: Record<string, unknown> = {}) => c.raw('POST', '/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 50, ...body });
const titles = async (c: OrgClient) => ((await query(c)).body.data.list as { Title: string }[]).map((r) => r.Title).sort();
const load = (c: OrgClient, objectId: string) => c.raw('POST', '/v1/form/loaddata', { schemaCode: code, objectId });
const execute = (c: OrgClient, body: Record<string, unknown>) => c.raw('POST', '/v1/form/action/execute', { schemaCode: code, ...body });
const saveGroup = (group: Record<string, unknown>) => a.raw('POST', '/v1/form/permission/group/save', { schemaCode: code, group });
const salesGroup = () => ({
  name: '销售部',
  members: { departments: [sales] },
  actions: ['view', 'create', 'edit'],
  viewScope: 'ownDept',
  editScope: 'own',
  fieldRights: { Amount: 'hidden', 'Items.Cost': 'readonly' },
});

async function member(name: string, departmentIds: string[]): Promise<Member> {
  const m = await addMember(t, admin, { name, departmentIds });
  await grant(a, appCode, m.userId, 'access');
  return { ...m, c: nodeClient(t.app, m) };
}

async function create(c: OrgClient, title: string, amount: number) {
  const res = await execute(c, { actionCode: 'Submit', values: { Title: title, Amount: amount }, children: { Items: [{ ItemName: `${title}-1`, Cost: 10 }] } });
  expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
  ids[title] = res.body.data.objectId;
}

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
    { type: 'number', code: 'Amount', options: { displayName: '金额' } },
    { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'number', code: 'Cost', options: { displayName: '成本' } }] },
  ], { enableDataLog: true }));
  const company = await companyIdOf(t, admin.engineCode);
  sales = (await a.post('/v1/org/department/create', { parentId: company, name: '销售部' })).id;
  east = (await a.post('/v1/org/department/create', { parentId: sales, name: '华东组' })).id;
  support = (await a.post('/v1/org/department/create', { parentId: company, name: '客服部' })).id;
  alice = await member('艾丽', [east]);
  bob = await member('鲍勃', [sales]);
  carol = await member('卡萝', [support]);
  dave = await member('戴夫', [support]);
  erin = await member('艾琳', [sales]);
  // Made before any group exists: whoever opens the form creates.
  await create(alice.c, 'A1', 100);
  await create(alice.c, 'A2', 200);
  await create(bob.c, 'B1', 300);
  await create(carol.c, 'C1', 400);
  await create(erin.c, 'E1', 500);
});
afterAll(() => t.close());

describe('a form without permission groups', () => {
  it('lets every member who opens it see every record and its fields', async () => {
    expect(await titles(carol.c)).toEqual(['A1', 'A2', 'B1', 'C1', 'E1']);
    const rights = await carol.c.post('/v1/form/permission/mine', { schemaCode: code });
    expect(rights).toMatchObject({ source: 'open', viewScopes: ['all'], fieldRights: {} });
    expect(rights.actions).toContain('export');
  });
});

describe('permission groups', () => {
  it('are edited by the app administrator only, naming fields and org units that exist', async () => {
    const refused = await bob.c.raw('POST', '/v1/form/permission/group/list', { schemaCode: code });
    expect(refused.body.errorCode).toBe(230005);
    const badField = await saveGroup({ ...salesGroup(), fieldRights: { Salary: 'hidden' } });
    expect(badField.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'group.fieldRights.Salary' }] } });
    const badUnit = await saveGroup({ ...salesGroup(), members: { users: ['no-such-user'] } });
    expect(badUnit.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'group.members.users.0' }] } });
    const badScope = await saveGroup({ ...salesGroup(), viewScope: 'everything' });
    expect(badScope.body.errorCode).toBe(777);
    const saved = await saveGroup(salesGroup());
    expect(saved.body.successful, JSON.stringify(saved.body)).toBe(true);
    const list = await a.post('/v1/form/permission/group/list', { schemaCode: code });
    expect(list.list).toHaveLength(1);
    expect(list.list[0]).toMatchObject({ name: '销售部', viewScope: 'ownDept', members: { departments: [sales], users: [], roles: [] } });
  });

  it('narrow the list to the view scope: own department, a group naming a department covering the ones below it', async () => {
    expect(await titles(bob.c)).toEqual(['B1', 'E1']);
    expect(await titles(alice.c)).toEqual(['A1', 'A2']);
    const counted = await query(bob.c, { pageSize: 1 });
    expect(counted.body.data.total).toBe(2);
  });

  it('leave hidden fields out of every answer, and out of filters, sorts and statistics', async () => {
    const row = (await query(alice.c)).body.data.list[0];
    expect(row).toHaveProperty('Title');
    expect(row).not.toHaveProperty('Amount');
    const loaded = await load(alice.c, ids.A1!);
    expect(loaded.body.data.values).not.toHaveProperty('Amount');
    expect(loaded.body.data.fieldRights).toEqual({ Amount: 'hidden', 'Items.Cost': 'readonly' });
    expect(loaded.body.data.children.Items[0]).toMatchObject({ ItemName: 'A1-1', Cost: 10 });
    const filtered = await query(alice.c, { filter: { field: 'Amount', operator: 'GreaterThan', value: 150 } });
    expect(filtered.body.errorCode).toBe(777);
    const sorted = await query(alice.c, { sort: [{ field: 'Amount', direction: 'desc' }] });
    expect(sorted.body.errorCode).toBe(777);
    const stat = await alice.c.raw('POST', '/v1/bizdata/column/stat', { schemaCode: code, field: 'Amount' });
    expect(stat.body.errorCode).toBe(777);
    const property = await alice.c.raw('POST', '/v1/bizdata/property/value', { schemaCode: code, objectId: ids.A1, propertyCode: 'Amount' });
    expect(property.body.errorCode).toBe(250007);
  });

  it('refuse records outside the view scope as not found', async () => {
    expect((await load(alice.c, ids.B1!)).body.errorCode).toBe(250001);
    const byIds = await alice.c.post('/v1/bizdata/byids', { schemaCode: code, objectIds: [ids.A1, ids.B1] });
    expect(byIds.list.map((r: { Title: string }) => r.Title)).toEqual(['A1']);
  });

  it('let a member edit within the edit scope, refuse changes to read-only fields and actions not granted', async () => {
    const ok = await execute(alice.c, { actionCode: 'Save', objectId: ids.A1, values: { Title: 'A1 改' } });
    expect(ok.body.successful, JSON.stringify(ok.body)).toBe(true);
    const loaded = (await load(alice.c, ids.A1!)).body.data;
    expect(loaded.actions).toEqual(expect.arrayContaining(['Save', 'Copy']));
    expect(loaded.actions).not.toContain('Remove');
    expect(loaded.actions).not.toContain('Print');
    const rowId = loaded.children.Items[0].ObjectId;
    const same = await execute(alice.c, { actionCode: 'Save', objectId: ids.A1, values: {}, children: { Items: [{ ObjectId: rowId, ItemName: '改名', Cost: 10 }] } });
    expect(same.body.successful, JSON.stringify(same.body)).toBe(true);
    const changed = await execute(alice.c, { actionCode: 'Save', objectId: ids.A1, values: {}, children: { Items: [{ ObjectId: rowId, ItemName: '改名', Cost: 99 }] } });
    expect(changed.body).toMatchObject({ errorCode: 330002, errorMessage: '“成本”对您只读，不能修改' });
    const hidden = await execute(alice.c, { actionCode: 'Save', objectId: ids.A1, values: { Amount: 1 } });
    expect(hidden.body.errorCode).toBe(330002);
    const removed = await execute(alice.c, { actionCode: 'Remove', objectId: ids.A1 });
    expect(removed.body.errorCode).toBe(330001);
    const printed = await execute(alice.c, { actionCode: 'Print', objectId: ids.A1 });
    expect(printed.body.errorCode).toBe(330001);
    // Nothing of the refused saves was stored; the administrator still sees the amount.
    const asAdmin = (await load(a, ids.A1!)).body.data;
    expect(asAdmin.values).toMatchObject({ Title: 'A1 改', Amount: 100 });
    expect(asAdmin.children.Items[0]).toMatchObject({ ItemName: '改名', Cost: 10 });
  });

  it('leave hidden fields out of the export columns and the data log, and refuse export and import without the action', async () => {
    await execute(a, { actionCode: 'Save', objectId: ids.A2, values: { Title: 'A2 改', Amount: 222 } });
    const log = await alice.c.post('/v1/form/datalog/list', { schemaCode: code, objectId: ids.A2 });
    const codes = log.list.flatMap((e: { changes: { code: string }[] }) => e.changes.map((c) => c.code));
    expect(codes).toContain('Title');
    expect(codes).not.toContain('Amount');
    const columns = await alice.c.get(`/v2/dataPort/getExportColumns/${code}/_`);
    const names = columns.columns.map((c: { code: string }) => c.code);
    expect(names).toContain('Title');
    expect(names).toContain('Items.ItemName');
    expect(names).not.toContain('Amount');
    const exported = await alice.c.raw('POST', '/v1/dataExport/addExportTask', { schemaCode: code });
    expect(exported.body.errorCode).toBe(330001);
    const template = await alice.c.raw('GET', `/v1/dataImport/template/${code}`);
    expect(template.body.errorCode).toBe(330001);
    await execute(a, { actionCode: 'Save', objectId: ids.A2, values: { Title: 'A2' } });
  });

  it('keep edits within the edit scope even where the view scope is wider', async () => {
    // Bob sees his department's records; Erin's is not his to edit or remove (edit scope: own).
    expect((await load(bob.c, ids.E1!)).body.data.actions).not.toContain('Save');
    const other = await execute(bob.c, { actionCode: 'Save', objectId: ids.E1, values: { Title: 'x' } });
    expect(other.body.errorCode).toBe(250003);
    const own = await execute(bob.c, { actionCode: 'Save', objectId: ids.B1, values: { Title: 'B1 改' } });
    expect(own.body.successful).toBe(true);
  });

  it('refuse a member in no group everything, with the action named in their language', async () => {
    const list = await query(carol.c);
    expect(list.body).toMatchObject({ errorCode: 330001, errorMessage: '您没有该表单的“查看”权限' });
    const created = await execute(carol.c, { actionCode: 'Submit', values: { Title: 'C2' } });
    expect(created.body.errorCode).toBe(330001);
    expect((await load(carol.c, ids.C1!)).body.errorCode).toBe(250001);
  });

  it('add up: a second group naming a user directly gives them its scope and its fields', async () => {
    const saved = await saveGroup({ name: '查看全部', members: { users: [dave.userId] }, actions: ['view', 'export'], viewScope: 'all', editScope: 'own', fieldRights: {} });
    expect(saved.body.successful).toBe(true);
    expect(await titles(dave.c)).toEqual(['A1 改', 'A2', 'B1 改', 'C1', 'E1']);
    expect((await query(dave.c)).body.data.list[0]).toHaveProperty('Amount');
    expect(await titles(bob.c)).toEqual(['B1 改', 'E1']);
    const rights = await dave.c.post('/v1/form/permission/mine', { schemaCode: code });
    expect(rights).toMatchObject({ source: 'groups', actions: ['view', 'export'], viewScopes: ['all'], fieldRights: {} });
  });

  it('let the app administrator preview a member\'s rights, and nobody else', async () => {
    const preview = await a.post('/v1/form/permission/mine', { schemaCode: code, userId: alice.userId });
    expect(preview).toMatchObject({ source: 'groups', actions: ['view', 'create', 'edit'], viewScopes: ['ownDept'], editScopes: ['own'], fieldRights: { Amount: 'hidden', 'Items.Cost': 'readonly' } });
    const mine = await a.post('/v1/form/permission/mine', { schemaCode: code });
    expect(mine.source).toBe('administrator');
    expect((await bob.c.raw('POST', '/v1/form/permission/mine', { schemaCode: code, userId: alice.userId })).body.errorCode).toBe(230005);
  });

  it('preview as a member: the list and a record are the member\'s own answers, computed for them by the server', async () => {
    const preview = await a.post('/v1/form/permission/preview', { schemaCode: code, userId: alice.userId });
    const theirs = (await query(alice.c)).body.data;
    expect(preview.opens).toBe(true);
    expect(preview.total).toBe(theirs.total);
    expect(preview.list).toEqual(theirs.list.slice(0, 10));
    expect(preview.list.length).toBeGreaterThan(0);
    expect(preview.list.some((r: Record<string, unknown>) => 'Amount' in r)).toBe(false);
    expect(preview.columns.map((c: { code: string; displayName: string }) => [c.code, c.displayName])).toEqual([['Title', '标题']]);
    const first = preview.list[0].ObjectId as string;
    expect(preview.record).toEqual((await load(alice.c, first)).body.data);
    expect(preview.record.values).not.toHaveProperty('Amount');
    expect(preview.record.fieldRights).toEqual({ Amount: 'hidden', 'Items.Cost': 'readonly' });
    // A record outside the member's scope is none, as their own loaddata answers 250001.
    const outside = await a.post('/v1/form/permission/preview', { schemaCode: code, userId: alice.userId, objectId: ids.C1 });
    expect((await load(alice.c, ids.C1!)).body.errorCode).toBe(250001);
    expect(outside.record).toBeNull();
    // The administrator's own list is wider: the preview is not the caller's answer.
    expect((await query(a)).body.data.total).toBeGreaterThan(preview.total);
    // Someone who cannot open the form's node: nothing but that.
    const stranger = await addMember(t, admin, { name: '路人', departmentIds: [sales] });
    expect(await a.post('/v1/form/permission/preview', { schemaCode: code, userId: stranger.userId })).toEqual({ opens: false, rights: null, columns: [], list: [], total: 0, record: null });
    // Members may not preview; an unknown user is not found.
    expect((await bob.c.raw('POST', '/v1/form/permission/preview', { schemaCode: code, userId: alice.userId })).body.errorCode).toBe(230005);
    expect((await a.raw('POST', '/v1/form/permission/preview', { schemaCode: code, userId: 'nobody' })).body.successful).toBe(false);
  });

  it('change owners with the change-owner right, within the edit scope; the record moves to its new owner and the data log says so', async () => {
    const changeOwner = (c: OrgClient, objectIds: string[], ownerId: string) => c.raw('POST', '/v1/bizdata/owner/change', { schemaCode: code, objectIds, ownerId });
    expect((await changeOwner(bob.c, [ids.B1!], dave.userId)).body.errorCode).toBe(330001);
    expect((await saveGroup({ name: '可转交', members: { users: [erin.userId] }, actions: ['view', 'edit', 'changeOwner'], viewScope: 'own', editScope: 'own', fieldRights: {} })).body.successful).toBe(true);
    // Bob's record is in Erin's view (own department) but not her edit scope: nothing moves.
    expect((await changeOwner(erin.c, [ids.E1!, ids.B1!], dave.userId)).body.errorCode).toBe(250003);
    expect((await changeOwner(erin.c, [ids.E1!], 'nobody')).body.errorCode).toBe(777);
    expect((await changeOwner(erin.c, [ids.E1!], dave.userId)).body.data).toEqual({ changed: 1 });
    const moved = (await load(dave.c, ids.E1!)).body.data;
    expect(moved.system.OwnerId).toBe(dave.userId);
    // Now in Dave's department: out of Erin's view, so not found for her.
    expect((await execute(erin.c, { actionCode: 'Save', objectId: ids.E1, values: { Title: 'x' } })).body.errorCode).toBe(250001);
    expect((await changeOwner(erin.c, [ids.E1!], erin.userId)).body.errorCode).toBe(250001);
    const log = await a.post('/v1/form/datalog/list', { schemaCode: code, objectId: ids.E1 });
    expect(log.list[0].changes).toEqual([{ code: 'OwnerId', from: erin.userId, to: dave.userId }]);
  });

  it('take effect at once when removed: the form is open again', async () => {
    const { list } = await a.post('/v1/form/permission/group/list', { schemaCode: code });
    for (const g of list) await a.post('/v1/form/permission/group/remove', { schemaCode: code, id: g.id });
    expect(await titles(carol.c)).toEqual(['A1 改', 'A2', 'B1 改', 'C1', 'E1']);
    const again = await a.raw('POST', '/v1/form/permission/group/remove', { schemaCode: code, id: list[0].id });
    expect(again.body.errorCode).toBe(330003);
  });
});

describe('the limit of groups', () => {
  it('holds at most 50 permission groups a form: the 51st is refused with 330005 and nothing is added', async () => {
    const other = (await createForm(a, appCode)).code as string;
    await publish(a, other, definition([{ type: 'textBox', code: 'Title' }]));
    const save = (n: number) => a.raw('POST', '/v1/form/permission/group/save', { schemaCode: other, group: { name: `组${n}`, members: { users: [alice.userId] }, actions: ['view'], viewScope: 'own', editScope: 'own', fieldRights: {} } });
    for (let n = 1; n <= 50; n++) expect((await save(n)).body.successful).toBe(true);
    expect((await save(51)).body).toMatchObject({ successful: false, errorCode: 330005 });
    const listed = await a.post('/v1/form/permission/group/list', { schemaCode: other });
    expect(listed.list ?? listed).toHaveLength(50);
  });
});

describe('external users', () => {
  it('see only their own records of a form without groups, and what a group naming their organisation shares', async () => {
    const form = (await createForm(a, appCode)).code as string;
    await publish(a, form, definition([{ type: 'textBox', code: 'Title' }]));
    const partner = (await a.post('/v1/org/department/create', { parentId: EXTERNAL_ROOT_NODE_ID, name: '合作伙伴' })).id;
    const guest = await member('外部联系人', [partner]);
    const inner = await a.post('/v1/form/action/execute', { schemaCode: form, actionCode: 'Submit', values: { Title: '内部' } });
    const theirs = await guest.c.post('/v1/form/action/execute', { schemaCode: form, actionCode: 'Submit', values: { Title: '外部' } });
    const list = async () => ((await guest.c.post('/v1/bizdata/query', { schemaCode: form, pageIndex: 0, pageSize: 50 })).list as { Title: string }[]).map((r) => r.Title).sort();
    // An internal member on the same open form sees both: the rule is the external user's, not the form's.
    expect(((await carol.c.post('/v1/bizdata/query', { schemaCode: form, pageIndex: 0, pageSize: 50 })).list as unknown[]).length).toBe(2);
    expect(await list()).toEqual(['外部']);
    expect(await guest.c.post('/v1/form/permission/mine', { schemaCode: form })).toMatchObject({ source: 'external', actions: ['view', 'create', 'edit', 'delete', 'print'], viewScopes: ['own'], editScopes: ['own'] });
    expect((await guest.c.raw('POST', '/v1/form/loaddata', { schemaCode: form, objectId: inner.objectId })).body.errorCode).toBe(250001);
    expect((await guest.c.raw('POST', '/v1/form/loaddata', { schemaCode: form, objectId: theirs.objectId })).body.successful).toBe(true);
    expect((await guest.c.raw('POST', '/v1/dataExport/addExportTask', { schemaCode: form })).body.errorCode).toBe(330001);
    // A group naming their external organisation shares more with them, as with anyone.
    await a.post('/v1/form/permission/group/save', { schemaCode: form, group: { name: '合作伙伴可见', members: { departments: [partner] }, actions: ['view'], viewScope: 'all', editScope: 'own' } });
    expect(await list()).toEqual(['内部', '外部']);
    expect((await guest.c.post('/v1/form/permission/mine', { schemaCode: form })).source).toBe('groups');
  });
});

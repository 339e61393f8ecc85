// test-databases: both — the acceptance claims its link in one statement and a partial unique index decides between two acceptances at once; memberships cross engine schemas in one transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_ROOT_NODE_ID } from '@tritium/shared/constants/org';
import { call, createTestApp, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, companyIdOf, engineDb, orgClient, orgSnapshot, type OrgClient, type Person } from '../../../test/org-helpers.ts';

// docs/decisions/0091: a host issues an association link; the partner's administrator accepts it on /ass-org (or
// creates an organisation on /make-org), chooses which of their people work in the host as external users; either
// side ends it and those people lose the host at once.

let t: TestApp;
let host: Person, partner: Person, third: Person;
let hostOrg: OrgClient, partnerOrg: OrgClient, thirdOrg: OrgClient;
/** A member of the partner with an account of their own (a Personal user there, not its administrator). */
let worker: Person & { userId: string };
/** A second partner member with an account, and one whose number has no account yet. */
let colleague: Person & { userId: string };
let pendingUserId: string;
let hostInnerUserId: string;

const as = (person: { token: string }, engineCode?: string) => ({
  get: (url: string, query?: Record<string, string>) => call(t.app, 'GET', url, { token: person.token, engineCode, query }),
  post: (url: string, body: unknown) => call(t.app, 'POST', url, { token: person.token, engineCode, body }),
});
function expectError(res: { status: number; body: any }, code: number) {
  expect(res.body?.errorCode, JSON.stringify(res.body)).toBe(code);
  expect(res.status).toBeLessThan(500);
}
async function newLink(): Promise<{ id: string; associatedCode: string; link: string }> {
  return hostOrg.post('/v1/org/associated/code/create', {});
}
async function accept(code: string, person: Person = partner, engineCode = partner.engineCode) {
  return as(person).post('/v1/org/associated/accept', { associatedCode: code, engineCode });
}

beforeAll(async () => {
  t = await createTestApp();
  host = await registerPerson(t.app, { userName: '宿主管理员', engineName: '宿主制造' });
  partner = await registerPerson(t.app, { userName: '供方管理员', engineName: '甲供应商' });
  third = await registerPerson(t.app, { userName: '旁人', engineName: '无关公司' });
  hostOrg = orgClient(t.app, host);
  partnerOrg = orgClient(t.app, partner);
  thirdOrg = orgClient(t.app, third);
  const rd = (await hostOrg.post('/v1/org/department/create', { parentId: await companyIdOf(t, host.engineCode), name: '研发部' })).id;
  hostInnerUserId = (await hostOrg.post('/v1/org/user/create', { name: '宿主员工', mobile: uniqueMobile(), departmentIds: [rd] })).id;
  worker = await addMember(t, partner, { name: '供方业务员' });
  colleague = await addMember(t, partner, { name: '供方会计' });
  pendingUserId = (await partnerOrg.post('/v1/org/user/create', { name: '供方新人', mobile: uniqueMobile(), departmentIds: [await companyIdOf(t, partner.engineCode)] })).id;
});
afterAll(() => t.close());

describe('the link and its acceptance', () => {
  let associationId: string;

  it('the host issues a link to /ass-org with the code, and the partner sees whom it comes from', async () => {
    const link = await newLink();
    expect(link.link).toBe(`/entry/ass-org?associatedCode=${link.associatedCode}`);
    const info = await as(partner).get('/v1/org/associated/code', { associatedCode: link.associatedCode });
    expect(info.body.data.hostEngineName).toBe('宿主制造');
    expect(info.body.data.organisations).toEqual([{ engineCode: partner.engineCode, engineName: '甲供应商', isHost: false, isAssociated: false }]);
    // A person who administers nothing sees no organisation to connect (only the one they registered).
    const workerInfo = await as(worker).get('/v1/org/associated/code', { associatedCode: link.associatedCode });
    expect(workerInfo.body.data.organisations.map((o: { engineCode: string }) => o.engineCode)).not.toContain(partner.engineCode);

    // Bad input changes nothing: unknown code, not the partner's administrator, the host itself.
    const before = await orgSnapshot(t, host.engineCode);
    expectError(await as(partner).get('/v1/org/associated/code', { associatedCode: 'no-such-code' }), 205001);
    expectError(await accept('no-such-code'), 205001);
    expectError(await accept(link.associatedCode, worker, partner.engineCode), 205004);
    expectError(await accept(link.associatedCode, host, host.engineCode), 205002);
    expectError(await accept(link.associatedCode, partner, third.engineCode), 205004);
    expectError(await as(partner).post('/v1/org/associated/accept', { associatedCode: link.associatedCode }), 777);
    expect(await orgSnapshot(t, host.engineCode)).toEqual(before);

    const accepted = await accept(link.associatedCode);
    expect(accepted.body.data).toMatchObject({ side: 'partner', state: 'active', hostEngineName: '宿主制造', partnerEngineName: '甲供应商', associatedCode: null, departmentId: null });
    associationId = accepted.body.data.id;
    // The host gets an external department named after the partner, under 外部组织.
    const [mine] = (await hostOrg.get('/v1/org/associated/list')).list;
    expect(mine).toMatchObject({ id: associationId, side: 'host', state: 'active', partnerEngineName: '甲供应商', memberCount: 0 });
    const department = await hostOrg.get('/v1/org/department', { id: mine.departmentId });
    expect(department).toMatchObject({ name: '甲供应商', parentId: EXTERNAL_ROOT_NODE_ID, isExternal: true });
  });

  it('a link is used once; a second link for the same pair is refused while they are associated', async () => {
    const list = (await hostOrg.get('/v1/org/associated/list')).list;
    const used = await t.database.db.selectFrom('platform.associated_orgs').select('associated_code').where('id', '=', list[0].id).executeTakeFirstOrThrow();
    expectError(await accept(used.associated_code), 205001);
    const second = await newLink();
    expect((await as(partner).get('/v1/org/associated/code', { associatedCode: second.associatedCode })).body.data.organisations[0].isAssociated).toBe(true);
    expectError(await accept(second.associatedCode), 205003);
    // The host withdraws the unused link; it cannot be accepted any more.
    expect((await hostOrg.post('/v1/org/associated/end', { id: second.id })).state).toBe('ended');
    expectError(await accept(second.associatedCode), 205001);
  });

  it('an expired link is refused', async () => {
    const link = await newLink();
    await t.database.db.updateTable('platform.associated_orgs').set({ code_expires: new Date(Date.now() - 1000) }).where('id', '=', link.id).execute();
    expectError(await as(partner).get('/v1/org/associated/code', { associatedCode: link.associatedCode }), 205001);
    expectError(await accept(link.associatedCode, third, third.engineCode), 205001);
    expect((await hostOrg.get('/v1/org/associated/list')).list.find((a: { id: string }) => a.id === link.id).isExpired).toBe(true);
  });

  it('with the feature switched off the host issues no link and its links cannot be accepted', async () => {
    const link = await newLink();
    await t.database.db.insertInto('platform.feature_switches').values({ engine_code: host.engineCode, name: 'associatedOrganization', value: '0' }).execute();
    try {
      expectError(await as(host, host.engineCode).post('/v1/org/associated/code/create', {}), 100403);
      expectError(await accept(link.associatedCode, third, third.engineCode), 100403);
    } finally {
      await t.database.db.deleteFrom('platform.feature_switches').where('engine_code', '=', host.engineCode).execute();
    }
    await hostOrg.post('/v1/org/associated/end', { id: link.id });
  });

  it('only administrators manage associations, and no engine reaches another pair\'s association', async () => {
    expect((await as(worker, partner.engineCode).get('/v1/org/associated/list')).status).toBe(403);
    expectError(await as(host, host.engineCode).post('/v1/org/associated/code/create', { validDays: 31 }), 777);
    expect((await thirdOrg.get('/v1/org/associated/list')).list).toEqual([]);
    expectError(await thirdOrg.raw('POST', '/v1/org/associated/end', { id: associationId }), 205005);
    expectError(await thirdOrg.raw('GET', '/v1/org/associated/member/list', { id: associationId }), 205005);
    expectError(await thirdOrg.raw('POST', '/v1/org/associated/member/add', { id: associationId, userIds: [worker.userId] }), 205005);
  });

  it('a session bound to one engine (an outside sign-in) accepts only for that engine and creates none', async () => {
    const account = await t.database.db.selectFrom('platform.accounts').select('id').where('mobile', '=', third.mobile).executeTakeFirstOrThrow();
    const bound = await t.app.extras.tokens.issue(account.id, 'user', host.engineCode);
    const link = await newLink();
    const answer = await as({ token: bound.accessToken }).post('/v1/org/associated/accept', { associatedCode: link.associatedCode, engineCode: third.engineCode });
    expect([answer.status, answer.body.errorCode]).toEqual([403, 100405]);
    expect((await as({ token: bound.accessToken }).post('/v1/org/associated/make-org', { associatedCode: link.associatedCode, engineName: '绑定会话的公司' })).body.errorCode).toBe(100405);
    await hostOrg.post('/v1/org/associated/end', { id: link.id });
  });
});

describe('members of the partner in the host', () => {
  let associationId: string;
  let departmentId: string;

  beforeAll(async () => {
    const active = (await hostOrg.get('/v1/org/associated/list')).list.find((a: { state: string }) => a.state === 'active');
    associationId = active.id;
    departmentId = active.departmentId;
  });

  it('only the partner chooses its people, and only its own active internal users', async () => {
    expectError(await hostOrg.raw('POST', '/v1/org/associated/member/add', { id: associationId, userIds: [worker.userId] }), 205004);
    expectError(await partnerOrg.raw('POST', '/v1/org/associated/member/add', { id: associationId, userIds: [hostInnerUserId] }), 220001);
    expectError(await partnerOrg.raw('POST', '/v1/org/associated/member/add', { id: associationId, userIds: [] }), 777);
  });

  it('the chosen people become external users of the host and see it as a non-primary engine', async () => {
    const added = await partnerOrg.post('/v1/org/associated/member/add', { id: associationId, userIds: [worker.userId, colleague.userId, pendingUserId] });
    expect(added.changed).toBe(3);
    expect((await partnerOrg.post('/v1/org/associated/member/add', { id: associationId, userIds: [worker.userId] })).changed).toBe(0);
    const members = (await partnerOrg.get('/v1/org/associated/member/list', { id: associationId })).list;
    // In the order they were added.
    expect(members.map((m: { name: string; isJoined: boolean }) => [m.name, m.isJoined])).toEqual([['供方业务员', true], ['供方会计', true], ['供方新人', false]]);
    const hostUser = await hostOrg.get('/v1/org/user', { id: members.find((m: { name: string }) => m.name === '供方业务员').hostUserId });
    expect(hostUser).toMatchObject({ authType: 5, isExternal: true, mainDepartmentId: departmentId });

    const connected = (await as(worker).get('/v1/engine/connected')).body.data.list;
    expect(connected.find((e: { engineCode: string }) => e.engineCode === host.engineCode)).toMatchObject({ engineName: '宿主制造', isPrimary: false });
    expect((await call(t.app, 'PUT', '/v1/engine/current', { token: worker.token, body: { engineCode: host.engineCode } })).body.successful).toBe(true);
  });

  it('in the host they see their own organisation only (docs/decisions/0010)', async () => {
    const inHost = orgClient(t.app, { token: worker.token, engineCode: host.engineCode });
    const users = await inHost.post('/v1/org/user/list', { scope: 'all', pageSize: -1 });
    expect(users.list.map((u: { name: string }) => u.name).sort()).toEqual(['供方会计', '供方新人', '供方业务员'].sort());
    const departments = await inHost.post('/v1/org/department/list', { recursive: true });
    expect(departments.list.map((d: { name: string }) => d.name)).toEqual(['甲供应商']);
    expect((await inHost.raw('GET', '/v1/org/user', { id: hostInnerUserId })).status).toBe(404);
    expect((await inHost.raw('GET', '/v1/org/role/list')).status).toBe(403);
    // …and nothing of the host's administration.
    expect((await inHost.raw('GET', '/v1/org/associated/list')).status).toBe(403);
  });

  it('a person without an account yet joins the host when they first sign in', async () => {
    const row = await engineDb(t.database.db, partner.engineCode).selectFrom('org_users').select('mobile').where('id', '=', pendingUserId).executeTakeFirstOrThrow();
    const newcomer = await registerPerson(t.app, { mobile: row.mobile, userName: '供方新人', engineName: '新人自己的公司' });
    const connected = (await as(newcomer).get('/v1/engine/connected')).body.data.list;
    expect(connected.map((e: { engineCode: string; isPrimary: boolean }) => [e.engineCode, e.isPrimary])).toEqual(expect.arrayContaining([[host.engineCode, false], [partner.engineCode, true]]));
  });

  it('taking a person out ends their access to the host at once; their host user stays, disabled', async () => {
    const inHost = as(colleague, host.engineCode);
    expect((await inHost.get('/v1/engine/current')).status).toBe(200);
    const removed = await hostOrg.post('/v1/org/associated/member/remove', { id: associationId, userIds: [colleague.userId] });
    expect(removed.changed).toBe(1);
    const refused = await inHost.get('/v1/engine/current');
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(100405);
    // Their own organisation is untouched.
    expect((await as(colleague, partner.engineCode).get('/v1/engine/current')).status).toBe(200);
    const disabled = await hostOrg.post('/v1/org/user/list', { departmentId, state: 'disabled' });
    expect(disabled.list.map((u: { name: string }) => u.name)).toEqual(['供方会计']);
  });

  it('ending the association (by the partner) removes every member from the host and deletes nothing else', async () => {
    const inHost = as(worker, host.engineCode);
    expect((await inHost.get('/v1/engine/current')).status).toBe(200);
    const partnerBefore = await orgSnapshot(t, partner.engineCode);
    const ended = await partnerOrg.post('/v1/org/associated/end', { id: associationId });
    expect(ended).toMatchObject({ state: 'ended', side: 'partner' });
    expect((await inHost.get('/v1/engine/current')).body.errorCode).toBe(100405);
    expect((await as(worker).get('/v1/engine/connected')).body.data.list.map((e: { engineCode: string }) => e.engineCode)).not.toContain(host.engineCode);
    // The partner's own organisation is as it was but for the memberships in the host; the host keeps the department.
    const partnerAfter = await orgSnapshot(t, partner.engineCode);
    for (const table of ['org_units', 'org_users', 'org_user_departments', 'accounts']) expect(partnerAfter[table]).toBe(partnerBefore[table]);
    expect(await hostOrg.get('/v1/org/department', { id: departmentId })).toMatchObject({ name: '甲供应商' });
    expect((await hostOrg.get('/v1/org/associated/list')).list.find((a: { id: string }) => a.id === associationId)).toMatchObject({ state: 'ended', memberCount: 0 });
    expectError(await partnerOrg.raw('POST', '/v1/org/associated/end', { id: associationId }), 205005);
    expectError(await partnerOrg.raw('POST', '/v1/org/associated/member/add', { id: associationId, userIds: [worker.userId] }), 205005);
  });

  it('associating again brings a person back as the same host user', async () => {
    const before = (await t.database.db.selectFrom('platform.associated_org_members').selectAll().execute()).length;
    expect(before).toBe(0);
    const link = await newLink();
    const again = (await accept(link.associatedCode)).body.data;
    expect(again.state).toBe('active');
    await partnerOrg.post('/v1/org/associated/member/add', { id: again.id, userIds: [worker.userId] });
    const [member] = (await partnerOrg.get('/v1/org/associated/member/list', { id: again.id })).list;
    const formerHostUser = await engineDb(t.database.db, host.engineCode).selectFrom('org_users').select(['id', 'state']).where('mobile', '=', worker.mobile).execute();
    expect(formerHostUser).toEqual([{ id: member.hostUserId, state: 'active' }]);
    expect((await as(worker, host.engineCode).get('/v1/engine/current')).status).toBe(200);
    // The association binds the department of the earlier one again.
    expect((await hostOrg.get('/v1/org/associated/list')).list[0].departmentId).toBe(departmentId);
  });
});

describe('/make-org and two acceptances at once', () => {
  it('a person creates an organisation on the spot and connects it; a bad link creates nothing', async () => {
    const engines = async () => Number((await t.database.db.selectFrom('platform.engines').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const count = await engines();
    expectError(await as(worker).post('/v1/org/associated/make-org', { associatedCode: 'no-such-code', engineName: '业务员的新公司' }), 205001);
    expect(await engines()).toBe(count);
    const link = await newLink();
    const made = await as(worker).post('/v1/org/associated/make-org', { associatedCode: link.associatedCode, engineName: '业务员的新公司' });
    expect(made.body.data.association).toMatchObject({ state: 'active', partnerEngineName: '业务员的新公司' });
    const mine = orgClient(t.app, { token: worker.token, engineCode: made.body.data.engineCode });
    expect((await mine.get('/v1/org/user')).authType).toBe(1);
    expect((await mine.get('/v1/org/associated/list')).list[0]).toMatchObject({ side: 'partner', hostEngineName: '宿主制造' });
  });

  it('two links accepted at once by the same partner: one association, in a department of its own name', async () => {
    // The host already has an external department of that name (made by hand): the bound one is numbered.
    await hostOrg.post('/v1/org/department/create', { parentId: EXTERNAL_ROOT_NODE_ID, name: '无关公司' });
    const [a, b] = [await newLink(), await newLink()];
    const answers = await Promise.all([accept(a.associatedCode, third, third.engineCode), accept(b.associatedCode, third, third.engineCode)]);
    expect(answers.map((r) => (r.body.successful ? true : r.body.errorCode)).sort()).toEqual([205003, true].sort());
    const active = await t.database.db.selectFrom('platform.associated_orgs').select('id').where('partner_engine_code', '=', third.engineCode).where('state', '=', 'active').execute();
    expect(active).toHaveLength(1);
    const bound = (await hostOrg.get('/v1/org/associated/list')).list.find((x: { id: string }) => x.id === active[0].id);
    expect((await hostOrg.get('/v1/org/department', { id: bound.departmentId })).name).toBe('无关公司（2）');
  });
});

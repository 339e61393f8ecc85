import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addInvitedMember, grant, nodeClient, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';

// The designer's calls (docs/decisions/0018) on PGlite and PostgreSQL: the dry run walks the conditions and resolves
// the participants as the engine would, for the form's app administrators only; the published template's activities
// for those who may open the form; another engine sees neither.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
let formCode: string;
let manager: InvitedMember;
let finance: InvitedMember;
let clerk: InvitedMember;
let clerkClient: OrgClient;
let adminId: string;

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'user', code: 'Reviewer' },
]);

const approve = (code: string, name: string, sources: unknown[], extra: Record<string, unknown> = {}) => ({ type: 'Approve', code, name, participants: { sources }, ...extra });
/** Start → 部门经理 (the originator's manager) → amount > 5000 ? 财务 : End. */
const expense = (financeSources: unknown[] = [{ type: 'users', ids: [] as string[] }]) => ({
  activities: [
    { type: 'Start', code: 'Start', name: '发起' },
    approve('Manager', '部门经理', [{ type: 'originatorManager', levels: 1 }]),
    { type: 'Condition', code: 'Big', name: '金额判断' },
    approve('Finance', '财务', financeSources),
    { type: 'End', code: 'End', name: '结束' },
  ],
  routes: [
    { from: 'Start', to: 'Manager' },
    { from: 'Manager', to: 'Big' },
    { from: 'Big', to: 'Finance', condition: { rules: [{ field: 'Amount', operator: 'gt', value: 5000 }] } },
    { from: 'Big', to: 'End', isElse: true },
    { from: 'Finance', to: 'End' },
  ],
});

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  manager = await addInvitedMember(t, admin, { name: '王经理' });
  finance = await addInvitedMember(t, admin, { name: '李财务' });
  const company = await companyIdOf(t, admin.engineCode);
  const team = await a.post('/v1/org/department/create', { parentId: company, name: `销售部${Date.now() % 100000}`, managerId: manager.userId });
  clerk = await addInvitedMember(t, admin, { name: '赵员工', departmentIds: [team.id] });
  clerkClient = nodeClient(t.app, clerk);
  formCode = (await createForm(a, appCode, { displayName: '费用报销' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, formCode, FORM);
  await grant(a, formCode, clerk.userId, 'create');
  adminId = (await a.post('/v1/form/loaddata', { schemaCode: formCode })).system.CreatedBy;
});
afterAll(() => t.close());

const dryrun = (body: Record<string, unknown>, client: OrgClient = a) => client.raw('POST', '/v1/workflow/template/dryrun', { schemaCode: formCode, ...body });
const path = (steps: { code: string }[]) => steps.map((s) => s.code);
const who = (steps: { code: string; participants: { name: string }[] }[], code: string) => steps.find((s) => s.code === code)?.participants.map((p) => p.name);

describe('POST /v1/workflow/template/dryrun', () => {
  it('refuses before anything is designed, then runs the draft', async () => {
    expect((await dryrun({})).body).toMatchObject({ successful: false, errorCode: 280050 });
    await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: expense([{ type: 'users', ids: [finance.userId] }]) });
    const r = await a.post('/v1/workflow/template/dryrun', { schemaCode: formCode, values: { Amount: 9000 }, originatorId: clerk.userId });
    expect(r.source).toBe('draft');
    expect(path(r.steps)).toEqual(['Start', 'Manager', 'Big', 'Finance', 'End']);
    expect(r.originator).toEqual({ userId: clerk.userId, name: '赵员工' });
  });

  it('follows the condition on a sample record and names who receives each node', async () => {
    const objectId = (await clerkClient.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', values: { Title: '差旅', Amount: 8000 } })).objectId;
    const template = expense([{ type: 'users', ids: [finance.userId] }]);
    const big = (await a.post('/v1/workflow/template/dryrun', { schemaCode: formCode, template, objectId })).steps;
    expect(path(big)).toEqual(['Start', 'Manager', 'Big', 'Finance', 'End']);
    expect(who(big, 'Start')).toEqual(['赵员工']);
    expect(who(big, 'Manager')).toEqual(['王经理']);
    expect(who(big, 'Finance')).toEqual(['李财务']);
    expect(big.find((s: { code: string }) => s.code === 'Big').next).toEqual([{ to: 'Finance', isElse: false }]);
    // Typed values override the record's: a small amount takes the else route.
    const small = await a.post('/v1/workflow/template/dryrun', { schemaCode: formCode, template, objectId, values: { Amount: '300' } });
    expect(small.source).toBe('body');
    expect(path(small.steps)).toEqual(['Start', 'Manager', 'Big', 'End']);
    expect(small.steps.find((s: { code: string }) => s.code === 'Big').next).toEqual([{ to: 'End', isElse: true }]);
    expect(small.reachesEnd).toBe(true);
  });

  it('nobody found: the administrators, or passed by itself; a branch with no match is blocked', async () => {
    const toAdmin = expense([{ type: 'field', code: 'Reviewer' }]);
    const r = await a.post('/v1/workflow/template/dryrun', { schemaCode: formCode, template: toAdmin, values: { Amount: 6000, Reviewer: null } });
    // The administrator as originator has no manager above: the manager node goes to the administrators too.
    expect(r.steps.find((s: { code: string }) => s.code === 'Finance')).toMatchObject({ whenEmpty: 'administrator', participants: [{ userId: adminId }] });
    const auto = structuredClone(toAdmin);
    (auto.activities[3] as { participants: { whenEmpty?: string } }).participants.whenEmpty = 'autoPass';
    const passed = await a.post('/v1/workflow/template/dryrun', { schemaCode: formCode, template: auto, values: { Amount: 6000, Reviewer: finance.userId } });
    expect(passed.steps.find((s: { code: string }) => s.code === 'Finance')).toMatchObject({ whenEmpty: null, participants: [{ name: '李财务' }] });
    const none = await a.post('/v1/workflow/template/dryrun', { schemaCode: formCode, template: auto, values: { Amount: 6000 } });
    expect(none.steps.find((s: { code: string }) => s.code === 'Finance')).toMatchObject({ whenEmpty: 'autoPass', participants: [] });

    const noElse = expense([{ type: 'users', ids: [finance.userId] }]);
    noElse.routes = noElse.routes.filter((x) => !x.isElse);
    const blocked = await a.post('/v1/workflow/template/dryrun', { schemaCode: formCode, template: noElse, values: { Amount: 10 } });
    expect(blocked.steps.find((s: { code: string }) => s.code === 'Big')).toMatchObject({ blocked: true, next: [] });
    expect(blocked.reachesEnd).toBe(false);
  });

  it('refuses bad input, plain members and other engines', async () => {
    expect((await dryrun({ objectId: '00000000-0000-4000-8000-000000000000' })).body.errorCode).toBe(250001);
    expect((await dryrun({ originatorId: 'nobody' })).body.errorCode).toBe(280051);
    expect((await dryrun({ template: { activities: [], routes: [] } })).body.errorCode).toBe(777);
    // A member who may fill the form is not its designer.
    expect((await dryrun({}, clerkClient)).body).toMatchObject({ successful: false, errorCode: 280008 });
    const stranger = nodeClient(t.app, await registerPerson(t.app, { engineName: '别家公司' }));
    const r = await dryrun({}, stranger);
    expect(r.body.successful).toBe(false);
    expect(r.status).toBe(404);
  });
});

describe('GET /v1/workflow/template/activity/list', () => {
  it('answers the latest published version\'s activities to those who may open the form', async () => {
    const other = (await createForm(a, appCode, { displayName: '请假' }, FunctionNodeType.WorkflowModule)).code;
    await publish(a, other, FORM);
    expect((await a.raw('GET', '/v1/workflow/template/activity/list', { schemaCode: other })).body.errorCode).toBe(280003);

    await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: expense([{ type: 'users', ids: [finance.userId] }]) });
    const { version } = await a.post('/v1/workflow/template/publish', { schemaCode: formCode });
    // A later draft does not change what is published.
    await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: { activities: [{ type: 'Start', code: 'Start', name: '发起' }], routes: [] } });
    const list = await clerkClient.get('/v1/workflow/template/activity/list', { schemaCode: formCode });
    expect(list.version).toBe(version);
    expect(list.activities).toEqual([
      { code: 'Start', name: '发起', type: 'Start' },
      { code: 'Manager', name: '部门经理', type: 'Approve' },
      { code: 'Big', name: '金额判断', type: 'Condition' },
      { code: 'Finance', name: '财务', type: 'Approve' },
      { code: 'End', name: '结束', type: 'End' },
    ]);
  });

  it('refuses members without access, data forms and other engines', async () => {
    const outsider = nodeClient(t.app, await addInvitedMember(t, admin, { name: '无权限' }));
    const r = await outsider.raw('GET', '/v1/workflow/template/activity/list', { schemaCode: formCode });
    expect(r.body.successful).toBe(false);
    expect(r.status).toBe(404);
    const dataForm = (await createForm(a, appCode, {}, FunctionNodeType.FormModule)).code;
    await publish(a, dataForm, FORM);
    expect((await a.raw('GET', '/v1/workflow/template/activity/list', { schemaCode: dataForm })).body.errorCode).toBe(280001);
    const stranger = nodeClient(t.app, await registerPerson(t.app, { engineName: '另一家公司' }));
    const s = await stranger.raw('GET', '/v1/workflow/template/activity/list', { schemaCode: formCode });
    expect(s.body.successful).toBe(false);
    expect(s.status).toBe(404);
  });
});

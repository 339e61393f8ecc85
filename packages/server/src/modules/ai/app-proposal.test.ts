import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserAuthType } from '@tritium/shared/constants/org';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, engineDb, orgClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import { OPENAI_KEY, startOpenAiFake, type OpenAiFake } from '../../../test/openai-fake.ts';

// test-databases: both — creating the app publishes generated forms (DDL), saves views and flows and removes a half-made app.
// An app from a description (docs/decisions/0126): the model's proposal is checked by the registry's schemas (an
// unknown type or setting is refused, nothing stored); a valid one, edited, is created through the designers' save
// and publish — the form publishes, its list view and flow exist, the dashboard saves; only app creators may.

let t: TestApp, admin: Person, a: OrgClient, creator: OrgClient, member: OrgClient, fake: OpenAiFake;
let roleName: string;

const VISIT = {
  appName: '客户拜访',
  forms: [
    {
      name: '客户拜访记录',
      fields: [
        { type: 'textBox', code: 'Customer', options: { displayName: '客户', required: true } },
        { type: 'dateTime', code: 'VisitTime', options: { displayName: '拜访时间', displayFormat: 'yyyy-MM-dd HH:mm' } },
        { type: 'user', code: 'Visitor', options: { displayName: '拜访人' } },
        { type: 'photo', code: 'Photos', options: { displayName: '照片' } },
        { type: 'dropDown', code: 'Result', options: { displayName: '拜访结果', defaultItems: ['有意向', '无意向', '待跟进'] } },
        { type: 'number', code: 'Amount', options: { displayName: '预计金额', decimalPlaces: 2 } },
      ],
      listColumns: ['Customer', 'VisitTime', 'Visitor', 'Result', 'CreatedTime'],
      workflow: { approvalName: '经理审批', approver: { kind: 'manager' } },
    },
  ],
  dashboard: {
    name: '拜访统计',
    charts: [
      { title: '按结果统计', form: 0, type: 'pie', groupBy: 'Result', sumField: null },
      { title: '预计金额', form: 0, type: 'bar', groupBy: 'Result', sumField: 'Amount' },
    ],
  },
};

const appCount = async () => (await engineDb(t.database.db, admin.engineCode).selectFrom('function_nodes').select('code').where('node_type', '=', 190).execute()).length;
const usage = () => engineDb(t.database.db, admin.engineCode).selectFrom('ai_usage').select(['scene', 'user_id', 'total_tokens', 'ok']).where('scene', '=', 'appProposal').execute();

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app, { userName: '管理员' });
  a = orgClient(t.app, admin);
  const c = await addInvitedMember(t, admin, { name: '应用创建者', authType: UserAuthType.AppCreator });
  creator = orgClient(t.app, c);
  member = orgClient(t.app, await addInvitedMember(t, admin, { name: '普通成员' }));
  const group = await a.post('/v1/org/rolegroup/create', { name: '岗位' });
  roleName = '销售经理';
  await a.post('/v1/org/role/create', { groupId: group.id, name: roleName });
  fake = await startOpenAiFake();
  await a.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, apiKey: OPENAI_KEY, chatModel: 'qwen-chat' });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const propose = (client: OrgClient, description = '客户拜访记录，要有客户、拜访时间、拜访人、照片，经理审批') => client.raw('POST', '/v1/ai-service/app/proposal', { description });

describe('an app from a description', () => {
  it('asks the model against a schema made from the registry and answers a proposal that passes its checks', async () => {
    fake.script.push({ content: JSON.stringify(VISIT) });
    const res = await propose(creator);
    expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.proposal.forms[0].fields.map((f: { type: string }) => f.type)).toEqual(['textBox', 'dateTime', 'user', 'photo', 'dropDown', 'number']);
    expect(res.body.data.roles).toEqual([roleName]);
    expect(res.body.data.controlTypes.map((c: { key: string }) => c.key)).toContain('photo');
    const asked = fake.requests.at(-1)!.body as { response_format: { json_schema: { schema: any } }; messages: { content: string }[] };
    const fieldKinds = asked.response_format.json_schema.schema.properties.forms.items.properties.fields.items.anyOf;
    // One branch a basic control type of the registry, with that type's own settings (a drop-down's items).
    expect(fieldKinds.map((k: any) => k.properties.type.const)).toEqual(expect.arrayContaining(['textBox', 'number', 'dateTime', 'dropDown', 'user', 'photo']));
    expect(fieldKinds.map((k: any) => k.properties.type.const)).not.toContain('gridView');
    expect(fieldKinds.find((k: any) => k.properties.type.const === 'dropDown').properties.options.properties).toHaveProperty('defaultItems');
    expect(asked.messages[0]!.content).toContain(roleName);
    // Nothing stored; the call is in the usage log under its scene.
    expect(await appCount()).toBe(0);
    expect(await usage()).toEqual([expect.objectContaining({ scene: 'appProposal', ok: true })]);
  });

  it('refuses a proposal with an unknown control type or a bad setting, and stores nothing', async () => {
    const bad = structuredClone(VISIT);
    bad.forms[0]!.fields.push({ type: 'hologram', code: 'Hologram', options: { displayName: '全息图' } } as never);
    fake.script.push({ content: JSON.stringify(bad) });
    const unknown = await propose(creator);
    expect(unknown.body.errorCode).toBe(480201);
    expect(unknown.body.errorMessage).toContain('hologram');
    const setting = structuredClone(VISIT);
    (setting.forms[0]!.fields[5]!.options as Record<string, unknown>).decimalPlaces = 'two';
    (setting.forms[0]!.fields[0]!.options as Record<string, unknown>).glow = true;
    const refused = await creator.raw('POST', '/v1/ai-service/app/create', { proposal: setting });
    expect(refused.body.errorCode).toBe(480201);
    const paths = refused.body.detail.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['forms.0.fields.0.options.glow', 'forms.0.fields.5.options.decimalPlaces']));
    // A role the organisation lacks, a list column or chart field that is no field: refused too.
    const other = structuredClone(VISIT) as any;
    other.forms[0].workflow.approver = { kind: 'role', roleName: '不存在的角色' };
    other.forms[0].listColumns.push('Nothing', 'WorkflowInstanceId');
    other.dashboard.charts[1].sumField = 'Customer';
    const more = await creator.raw('POST', '/v1/ai-service/app/create', { proposal: other });
    expect(more.body.detail.issues.map((i: { path: string }) => i.path)).toEqual(['forms.0.listColumns.5', 'forms.0.listColumns.6', 'forms.0.workflow.approver.roleName', 'dashboard.charts.1.sumField']);
    expect(await appCount()).toBe(0);
  });

  it('creates the edited proposal: the form publishes, its list view and flow exist, the dashboard saves', async () => {
    const edited = structuredClone(VISIT) as any;
    edited.appName = '拜访管理';
    edited.forms[0].fields.push({ type: 'textArea', code: 'Notes', options: { displayName: '拜访纪要' } });
    edited.forms[0].workflow.approver = { kind: 'role', roleName };
    const res = await creator.raw('POST', '/v1/ai-service/app/create', { proposal: edited });
    expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
    const { appCode, forms, dashboardCode } = res.body.data;
    const code = forms[0].schemaCode as string;
    expect(forms).toEqual([{ schemaCode: code, name: '客户拜访记录', workflow: true }]);
    // The creator administers the app, like an app made by hand.
    const apps = await creator.get('/v1/functionnode/app/list');
    expect(apps.list.find((x: { code: string }) => x.code === appCode)).toMatchObject({ displayName: '拜访管理', isAdmin: true });
    const design = await creator.post('/v1/formdesign/load', { schemaCode: code });
    expect(design.published.definition.controls.map((c: { code: string }) => c.code)).toEqual(['Customer', 'VisitTime', 'Visitor', 'Photos', 'Result', 'Amount', 'Notes']);
    expect(design.hasUnpublishedChanges).toBe(false);
    const views = await creator.get('/v1/view/setting', { schemaCode: code });
    expect(views.views[0].columns.map((c: { field: string }) => c.field)).toEqual(['Customer', 'VisitTime', 'Visitor', 'Result', 'CreatedTime']);
    const flow = await creator.get('/v1/workflow/template/load', { schemaCode: code });
    expect(flow.publishedVersion).toBe(1);
    expect(flow.published.activities.map((x: { type: string; name: string }) => `${x.type}:${x.name}`)).toEqual(['Start:发起', 'Approve:经理审批', 'End:结束']);
    expect(flow.published.activities[1].participants.sources[0].type).toBe('roles');
    const board = await creator.get('/v1/dashboard/load', { code: dashboardCode });
    expect(board.definition.widgets.map((w: { type: string; source: { schemaCode: string } }) => [w.type, w.source.schemaCode])).toEqual([['pie', code], ['bar', code]]);
    // The form works: a record saves and its flow starts.
    const { objectId } = await creator.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Customer: '杭州明远五金', Result: '有意向', Amount: 1200 } });
    const started = await creator.raw('POST', '/v1/workflow/instance/start', { schemaCode: code, objectId, opinion: { text: '请审批' } });
    expect(started.body.successful, JSON.stringify(started.body)).toBe(true);
  });

  it('refuses a member who may not create apps, before any model call', async () => {
    const before = fake.requests.length;
    expect((await propose(member)).body.errorCode).toBe(480202);
    expect((await member.raw('POST', '/v1/ai-service/app/create', { proposal: VISIT })).body.errorCode).toBe(480202);
    expect(fake.requests.length).toBe(before);
    expect((await propose(member, '')).body.errorCode).toBe(777);
  });

  it('counts against the credit: used up, the proposal is refused and logged calls stay', async () => {
    await a.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, chatModel: 'qwen-chat', quotaTokens: 10 });
    fake.script.push({ content: JSON.stringify(VISIT) });
    await propose(creator);
    const exhausted = await propose(creator);
    expect(exhausted.body.errorCode).toBe(480003);
    // The three proposals asked (the refused one with an unknown type included); none once the credit was used up.
    expect((await usage()).length).toBe(3);
  });
});

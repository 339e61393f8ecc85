import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { createForm, definition, formWithDepartmentMember, publish } from '../../../test/form-helpers.ts';
import type { OrgClient, Person } from '../../../test/org-helpers.ts';
import { OPENAI_KEY, serverSentEvents, startOpenAiFake, type OpenAiFake } from '../../../test/openai-fake.ts';

// A record drafted from a conversation (docs/decisions/0126): the assistant's draft_record tool passes the values
// through the save's checks (a value outside a choice's items is left out and named), answers a `draft` event for the
// browser to open, never writes a record, and refuses a form the member may not create records in.

let t: TestApp, a: OrgClient, code: string, readOnlyCode: string, appCode: string;
let member: Person & { userId: string };
let fake: OpenAiFake;

const FORM = definition([
  { type: 'textBox', code: 'Reason', options: { displayName: '事由' } },
  { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
  { type: 'dropDown', code: 'Kind', options: { displayName: '类别', defaultItems: ['差旅', '招待', '办公'] } },
  { type: 'dateTime', code: 'SpentOn', options: { displayName: '日期' } },
]);

const ask = async (message: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/ai-service/stream-chat',
    headers: { authorization: `Bearer ${member.token}`, enginecode: member.engineCode },
    payload: { engineCode: member.engineCode, userId: member.userId, sceneId: 'assistant', message },
  });
  expect(res.statusCode, res.body).toBe(200);
  return serverSentEvents(res.body);
};
const toolAnswers = () => (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((msg) => msg.role === 'tool').map((msg) => JSON.parse(msg.content));
const recordCount = async (schemaCode: string) => (await a.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 10 })).total;
const draftCall = (schemaCode: string, values: Record<string, unknown>) => ({ toolCalls: [{ id: 'call_draft', name: 'draft_record', arguments: JSON.stringify({ schemaCode, values }) }] });

beforeAll(async () => {
  let D1: string;
  ({ t, a, code, member, D1, appCode } = await formWithDepartmentMember({}, FORM));
  const group = { name: '销售部', members: { departments: [D1] }, actions: ['view', 'create', 'edit'], viewScope: 'own', editScope: 'own' };
  expect((await a.raw('POST', '/v1/form/permission/group/save', { schemaCode: code, group })).body.successful).toBe(true);
  // A second form the member may read but not add to.
  readOnlyCode = (await createForm(a, appCode)).code;
  await publish(a, readOnlyCode, FORM);
  const viewOnly = { name: '只读', members: { departments: [D1] }, actions: ['view'], viewScope: 'all', editScope: 'own' };
  expect((await a.raw('POST', '/v1/form/permission/group/save', { schemaCode: readOnlyCode, group: viewOnly })).body.successful).toBe(true);
  fake = await startOpenAiFake();
  await a.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, apiKey: OPENAI_KEY, chatModel: 'qwen-chat' });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe('draft_record', () => {
  it('answers a draft that passed the save checks, and writes no record', async () => {
    fake.script.push(draftCall(code, { Reason: '出差', Amount: '300', 类别: '差旅', SpentOn: '2026-11-20' }), { content: '已为你起草报销单，请核对后保存。' });
    const events = await ask('帮我起草一张报销单，金额 300，事由出差');
    const draft = events.find((e) => e.event === 'draft');
    expect(draft?.data).toEqual({
      schemaCode: code,
      formName: expect.any(String),
      values: { Reason: '出差', Amount: 300, Kind: '差旅', SpentOn: expect.stringMatching(/^2026-11-1[89]T|^2026-11-20/) },
      filled: ['Reason', 'Amount', 'Kind', 'SpentOn'],
      issues: [],
    });
    expect(events.at(-1)!.event).toBe('done');
    // The model is told the draft is opened for the person to save, never that it was saved.
    expect(toolAnswers()[0]).toMatchObject({ filled: ['事由', '金额', '类别', '日期'], note: expect.stringContaining('自行保存') });
    expect(await recordCount(code)).toBe(0);
  });

  it("leaves out a value outside a control's items or of the wrong kind, and names it", async () => {
    fake.script.push(draftCall(code, { Reason: '请客户吃饭', Kind: '宴请', Amount: '三百', Nothing: 1 }), { content: '好的。' });
    const events = await ask('起草一张招待报销');
    const draft = events.find((e) => e.event === 'draft')!.data;
    expect(draft.values).toEqual({ Reason: '请客户吃饭' });
    expect(draft.issues.map((i: { field: string }) => i.field).sort()).toEqual(['Amount', 'Kind', 'Nothing']);
    expect(draft.issues.find((i: { field: string }) => i.field === 'Kind').message).toContain('不是可选项');
    expect(toolAnswers()[0].notAccepted).toHaveLength(3);
    expect(await recordCount(code)).toBe(0);
  });

  it('refuses a form the member may not create records in, and a form they cannot open', async () => {
    fake.script.push(draftCall(readOnlyCode, { Reason: '出差' }), { content: '你没有权限。' });
    const events = await ask('在只读表单里起草一条');
    expect(events.some((e) => e.event === 'draft')).toBe(false);
    expect(toolAnswers()[0].error).toContain('没有在表单');
    fake.script.push(draftCall('NoSuchForm', { Reason: '出差' }), { content: '找不到表单。' });
    const unknown = await ask('在不存在的表单里起草');
    expect(unknown.some((e) => e.event === 'draft')).toBe(false);
    expect(toolAnswers()[0].error).toBeTruthy();
    // Nothing drafted at all: no values, no draft event.
    fake.script.push(draftCall(code, { Kind: '宴请' }), { content: '没有可填的值。' });
    expect((await ask('起草')).some((e) => e.event === 'draft')).toBe(false);
    expect(await recordCount(code)).toBe(0);
    expect(await recordCount(readOnlyCode)).toBe(0);
  });
});

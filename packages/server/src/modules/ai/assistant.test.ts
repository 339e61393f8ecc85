import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { definition, formWithDepartmentMember } from '../../../test/form-helpers.ts';
import type { OrgClient, Person } from '../../../test/org-helpers.ts';
import { OPENAI_KEY, serverSentEvents, startOpenAiFake, type OpenAiFake } from '../../../test/openai-fake.ts';

// The assistant over the organisation's data (docs/decisions/0124): the model's tool calls run as the person asking —
// their data scope (a group that sees its own department's records) and field rights (a hidden field is never read,
// filtered on or summed) — and the records used come back as citations. The fake model is scripted to call the tools.

let t: TestApp, admin: Person, a: OrgClient, m: OrgClient, code: string, table: string, D1: string;
let member: Person & { userId: string };
let fake: OpenAiFake;
const ids: Record<string, string> = {};

const FORM = definition([
  { type: 'textBox', code: 'Title', options: { displayName: '事由' } },
  { type: 'dropDown', code: 'Region', options: { displayName: '区域', defaultItems: ['华东', '华南'] } },
  { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
  { type: 'number', code: 'Secret', options: { displayName: '内部成本', decimalPlaces: 0 } },
]);

async function submit(c: OrgClient, title: string, region: string, amount: number) {
  const res = await c.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: title, Region: region, Amount: amount } });
  expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
  ids[title] = res.body.data.objectId;
}

const events = serverSentEvents;

const ask = async (message: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/ai-service/stream-chat',
    headers: { authorization: `Bearer ${member.token}`, enginecode: member.engineCode },
    payload: { engineCode: member.engineCode, userId: member.userId, sceneId: 'assistant', message },
  });
  expect(res.statusCode, res.body).toBe(200);
  return events(res.body);
};
/** What the model was told a tool answered, in the last request it got. */
const toolAnswers = () => (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((msg) => msg.role === 'tool').map((msg) => msg.content);

beforeAll(async () => {
  ({ t, admin, a, code, table, member, m, D1 } = await formWithDepartmentMember({}, FORM));
  // The member's department sees its own records and never the internal cost.
  const group = { name: '销售部', members: { departments: [D1] }, actions: ['view', 'create', 'edit'], viewScope: 'ownDept', editScope: 'own', fieldRights: { Secret: 'hidden' } };
  const saved = await a.raw('POST', '/v1/form/permission/group/save', { schemaCode: code, group });
  expect(saved.body.successful, JSON.stringify(saved.body)).toBe(true);
  await submit(m, '上海客户拜访', '华东', 120.5);
  await submit(m, '杭州展会', '华东', 180);
  await submit(m, '广州出差', '华南', 99);
  // The administrator's record is outside the member's scope.
  await submit(a, '南京总部招待', '华东', 5000);
  // The internal cost is the finance department's to write: set here directly.
  await sql`update ${sql.raw(`"e_${admin.engineCode}"."${table}"`)} set "Secret" = 7770 + "Amount"`.execute(t.database.db);
  fake = await startOpenAiFake();
  await a.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, apiKey: OPENAI_KEY, chatModel: 'qwen-chat' });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe('the assistant', () => {
  it('sums the records the member may read, through a tool, and cites them', async () => {
    fake.script.push({ toolCalls: [{ id: 'call_1', name: 'aggregate', arguments: JSON.stringify({ schemaCode: code, filters: [{ field: 'Region', operator: 'Equal', value: '华东' }], field: 'Amount' }) }] });
    fake.script.push({ content: '华东区的报销合计为 300.50 元，共 2 条。' });
    const got = await ask('华东区的报销总额是多少');
    expect(got.filter((e) => e.event === 'tool').map((e) => e.data.name)).toEqual(['aggregate']);
    const answer = JSON.parse(toolAnswers()[0]!);
    expect(answer).toMatchObject({ count: 2, sum: 300.5 });
    const cited = got.filter((e) => e.event === 'cite').flatMap((e) => e.data.citations);
    expect(cited.map((c: { objectId: string }) => c.objectId).sort()).toEqual([ids['上海客户拜访'], ids['杭州展会']].sort());
    expect(cited.every((c: { schemaCode: string }) => c.schemaCode === code)).toBe(true);
    expect(got.filter((e) => e.event === 'delta').map((e) => e.data.content).join('')).toBe('华东区的报销合计为 300.50 元，共 2 条。');
    expect(got.at(-1)!.event).toBe('done');
    // The model was given the tools and a system prompt naming the day.
    expect((fake.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual(['list_forms', 'describe_form', 'find_records', 'aggregate', 'draft_record']);
    expect((fake.requests.at(-1)!.body.messages as { role: string; content: string }[])[0]!.content).toContain('今天是');
  });

  it('groups by a field, and never reads, filters on or sums a hidden field', async () => {
    fake.script.push({
      toolCalls: [
        { id: 'c1', name: 'describe_form', arguments: JSON.stringify({ schemaCode: code }) },
        { id: 'c2', name: 'find_records', arguments: JSON.stringify({ schemaCode: code, limit: 20 }) },
        { id: 'c3', name: 'aggregate', arguments: JSON.stringify({ schemaCode: code, field: 'Secret' }) },
        { id: 'c4', name: 'find_records', arguments: JSON.stringify({ schemaCode: code, filters: [{ field: 'Secret', operator: 'Above', value: 0 }] }) },
        { id: 'c5', name: 'aggregate', arguments: JSON.stringify({ schemaCode: code, field: 'Amount', groupBy: 'Region' }) },
      ],
    });
    fake.script.push({ content: '好的。' });
    await ask('列出我能看到的报销，按区域汇总');
    const [described, found, secretSum, secretFilter, grouped] = toolAnswers().map((text) => JSON.parse(text));
    expect(described.fields.map((f: { code: string }) => f.code)).toEqual(['Title', 'Region', 'Amount']);
    expect(found.total).toBe(3);
    expect(found.records.map((r: { title: string; values: Record<string, unknown> }) => r.values['事由']).sort()).toEqual(['上海客户拜访', '广州出差', '杭州展会']);
    expect(secretSum.error).toBeTruthy();
    expect(secretFilter.error).toBeTruthy();
    expect(grouped.groups).toEqual([
      { group: '华东', count: 2, sum: 300.5, avg: 150.25, min: 120.5, max: 180 },
      { group: '华南', count: 1, sum: 99, avg: 99, min: 99, max: 99 },
    ]);
    // Nothing of the hidden field, nor the record outside the scope, reached the model.
    const told = JSON.stringify(fake.requests.at(-1)!.body.messages);
    for (const leak of ['7770', '7890', '7950', '7869', '内部成本', '南京总部招待']) expect(told).not.toContain(leak);
  });

  it('answers a bad tool call in words to the model, and counts the question once against the rate', async () => {
    fake.script.push({ toolCalls: [{ id: 'x1', name: 'find_records', arguments: '{not json' }, { id: 'x2', name: 'drop_tables', arguments: '{}' }, { id: 'x3', name: 'find_records', arguments: JSON.stringify({ schemaCode: 'NoSuchForm' }) }] });
    fake.script.push({ content: '查询失败。' });
    await ask('随便查查');
    const answers = toolAnswers().map((text) => JSON.parse(text));
    expect(answers.map((r) => typeof r.error)).toEqual(['string', 'string', 'string']);
    const usage = await a.get('/v1/ai/usage/list');
    // Each model call is logged: 2 + 2 + 2.
    expect(usage.items.filter((r: { scene: string }) => r.scene === 'assistant')).toHaveLength(6);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { definition, formWithDepartmentMember } from '../../../test/form-helpers.ts';
import type { OrgClient } from '../../../test/org-helpers.ts';
import { OPENAI_KEY, startOpenAiFake, type OpenAiFake } from '../../../test/openai-fake.ts';
import { facePicture } from '../../../test/tencent-face-fake.ts';

// Form extraction (docs/decisions/0124): the schema the model is given comes from the form's controls (a choice's items
// as an enum, sub-table rows as an array, read-only fields left out); what it answers passes the save's checks —
// a value outside a control's items or of the wrong kind is left out and named; nothing is saved.

let t: TestApp, a: OrgClient, m: OrgClient, code: string, D1: string;
let member: { token: string; engineCode: string }, admin: { token: string; engineCode: string };
let fake: OpenAiFake;

const FORM = definition([
  { type: 'textBox', code: 'Customer', options: { displayName: '客户' } },
  { type: 'textBox', code: 'Phone', options: { displayName: '电话', textMode: 'Telephone' } },
  { type: 'dropDown', code: 'Level', options: { displayName: '级别', defaultItems: ['A', 'B', 'C'] } },
  { type: 'dateTime', code: 'VisitDate', options: { displayName: '拜访日期' } },
  { type: 'number', code: 'Budget', options: { displayName: '预算', decimalPlaces: 2 } },
  { type: 'textBox', code: 'Internal', options: { displayName: '内部备注' } },
  { type: 'gridView', code: 'Items', options: { displayName: '产品' }, controls: [{ type: 'textBox', code: 'Product', options: { displayName: '产品名' } }, { type: 'number', code: 'Qty', options: { displayName: '数量' } }] },
]);

beforeAll(async () => {
  ({ t, a, m, code, D1, member, admin } = await formWithDepartmentMember({}, FORM));
  const group = { name: '销售部', members: { departments: [D1] }, actions: ['view', 'create', 'edit'], viewScope: 'all', editScope: 'own', fieldRights: { Internal: 'readonly' } };
  expect((await a.raw('POST', '/v1/form/permission/group/save', { schemaCode: code, group })).body.successful).toBe(true);
  fake = await startOpenAiFake();
  await a.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, apiKey: OPENAI_KEY, chatModel: 'qwen-chat' });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const extract = (text: string) => m.raw('POST', '/v1/ai-service/agent/form/extraction', { schemaCode: code, text });

describe('form extraction', () => {
  it('asks with a schema made from the form and keeps what passes the save checks', async () => {
    fake.script.push({
      content: JSON.stringify({ Customer: '杭州明远五金', Phone: '0571-88886666', Level: 'B', VisitDate: '2026-12-03 14:30', Budget: '12,500.5', Items: [{ Product: '角磨机', Qty: 20 }, { Product: null, Qty: null }] }),
    });
    const res = await extract('明天下午两点半去拜访杭州明远五金，电话0571-88886666，B级客户，预算一万二千五百块五，想要20台角磨机');
    expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data).toEqual({
      values: { Customer: '杭州明远五金', Phone: '0571-88886666', Level: 'B', VisitDate: expect.stringMatching(/^2026-12-03T06:30:00(\.000)?Z$/), Budget: 12500.5 },
      children: { Items: [{ Product: '角磨机', Qty: 20 }] },
      filled: ['Customer', 'Phone', 'Level', 'VisitDate', 'Budget', 'Items'],
      issues: [],
    });
    const asked = fake.requests.at(-1)!.body as { response_format: { json_schema: { schema: { properties: Record<string, { enum?: unknown[] }>; required: string[] } } }; temperature: number };
    const schema = asked.response_format.json_schema.schema;
    expect(Object.keys(schema.properties)).toEqual(['Customer', 'Phone', 'Level', 'VisitDate', 'Budget', 'Items']);
    expect(schema.properties.Level!.enum).toEqual(['A', 'B', 'C', null]);
    expect(schema.required).toEqual(Object.keys(schema.properties));
    expect(asked.temperature).toBe(0);
  });

  it("leaves out a value outside a control's items or failing its rule, and names it", async () => {
    fake.script.push({ content: JSON.stringify({ Customer: '甲公司', Phone: '不知道', Level: 'VIP', VisitDate: null, Budget: null, Items: [] }) });
    const res = await extract('甲公司，VIP 客户');
    expect(res.body.data.values).toEqual({ Customer: '甲公司' });
    expect(res.body.data.issues.map((i: { field: string }) => i.field).sort()).toEqual(['Level', 'Phone']);
    expect(res.body.data.issues.find((i: { field: string }) => i.field === 'Level').message).toContain('不是可选项');
  });

  it('refuses an answer that is not form data, and bad bodies', async () => {
    fake.script.push({ content: '抱歉，我无法识别。' });
    expect((await extract('随便写写')).body.errorCode).toBe(480005);
    expect((await m.raw('POST', '/v1/ai-service/agent/form/extraction', { schemaCode: code, text: '' })).body.errorCode).toBe(777);
    expect((await m.raw('POST', '/v1/ai-service/agent/form/extraction', { schemaCode: code, text: 'x'.repeat(20001) })).body.errorCode).toBe(777);
    const unknown = await m.raw('POST', '/v1/ai-service/agent/form/extraction', { schemaCode: 'NoSuchForm', text: '你好' });
    expect(unknown.body.successful).toBe(false);
    // Nothing was saved by any of it.
    expect((await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10 })).total).toBe(0);
  });

  it('reads a picture the member uploaded with the vision model; not without one, nor the file of another person', async () => {
    const upload = async (person: { token: string; engineCode: string }, bytes: Buffer, fileName = 'card.png') => {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/v1/file/upload',
        query: { scene: 'ocrImage', fileName },
        headers: { authorization: `Bearer ${person.token}`, enginecode: person.engineCode, 'content-type': 'application/octet-stream' },
        payload: bytes,
      });
      expect(answer.json().successful, answer.body).toBe(true);
      return answer.json().data.fileId as string;
    };
    const picture = facePicture('card');
    const fileId = await upload(member, picture);
    const withPicture = (id: string, text?: string) => m.raw('POST', '/v1/ai-service/agent/form/extraction', { schemaCode: code, fileId: id, ...(text ? { text } : {}) });
    // No vision model yet.
    expect((await withPicture(fileId)).body.errorCode).toBe(480009);
    await a.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, chatModel: 'qwen-chat', visionModel: 'qwen-vl' });
    fake.script.push({ content: JSON.stringify({ Customer: '宁波港务', Phone: null, Level: 'A', VisitDate: null, Budget: 800, Items: [] }) });
    const read = await withPicture(fileId, '这是名片');
    expect(read.body.data.values).toEqual({ Customer: '宁波港务', Level: 'A', Budget: 800 });
    const asked = fake.requests.at(-1)!.body as { model: string; messages: { role: string; content: unknown }[] };
    expect(asked.model).toBe('qwen-vl');
    const parts = asked.messages[1]!.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts[0]).toEqual({ type: 'text', text: '这是名片' });
    expect(parts[1]!.image_url!.url).toBe(`data:image/png;base64,${picture.toString('base64')}`);
    // Someone else's upload is not found to the member; a file that is not a picture is refused in words.
    const adminsFile = await upload(admin, picture);
    expect((await withPicture(adminsFile)).body.errorCode).toBe(260001);
    const text = await upload(member, Buffer.from('这不是图片，只是一段文字而已。'.repeat(3)), 'note.png');
    const notPicture = await withPicture(text);
    expect(notPicture.body.successful).toBe(false);
  });
});

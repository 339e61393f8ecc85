// test-databases: both — the templates table in each engine's schema (insert on conflict, counts, another engine unseen) and the form read by the OCR control.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { definition, formWithDepartmentMember } from '../../../test/form-helpers.ts';
import { engineDb, orgClient, type OrgClient } from '../../../test/org-helpers.ts';
import { OPENAI_KEY, startOpenAiFake } from '../../../test/openai-fake.ts';
import { stopOcr } from './ocr-runner.ts';
import { INVOICE_VALUES, invoicePicture, textPicture } from './text-picture.ts';

// OCR on the machine and recognition templates (docs/decisions/0125): a generated invoice picture (known text, the
// CJK font) read by the local models with no network, its built-in template filling a form through the OCR control
// with the save's checks; the templates' create, read, update and delete with bad input, limits, built-ins read-only
// and another engine's template unknown. The models load once for the file (one worker thread).

let t: TestApp, a: OrgClient, m: OrgClient, code: string, D1: string;
let member: { token: string; engineCode: string }, admin: { token: string; engineCode: string };
let invoice: Buffer;

const FORM = definition([
  { type: 'textBox', code: 'InvoiceNo', options: { displayName: '发票号码' } },
  { type: 'dateTime', code: 'IssueDate', options: { displayName: '开票日期' } },
  { type: 'textBox', code: 'Buyer', options: { displayName: '购买方' } },
  { type: 'number', code: 'Total', options: { displayName: '价税合计', decimalPlaces: 2 } },
  { type: 'number', code: 'Tax', options: { displayName: '税额', decimalPlaces: 2 } },
  { type: 'textBox', code: 'Phone', options: { displayName: '电话', textMode: 'Telephone' } },
  { type: 'textBox', code: 'Locked', options: { displayName: '锁定' } },
  {
    type: 'ocr',
    code: 'Scan',
    options: { displayName: '发票识别', templateCode: 'vatInvoice', mapping: { InvoiceNo: 'invoiceNumber', IssueDate: 'issueDate', Buyer: 'buyerName', Total: 'totalAmount', Tax: 'taxAmount', Phone: 'buyerTaxId', Locked: 'invoiceCode' } },
  },
]);

async function upload(person: { token: string; engineCode: string }, bytes: Buffer, fileName = 'invoice.png'): Promise<string> {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/v1/file/upload',
    query: { scene: 'ocrImage', fileName },
    headers: { authorization: `Bearer ${person.token}`, enginecode: person.engineCode, 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
  expect(answer.json().successful, answer.body).toBe(true);
  return answer.json().data.fileId as string;
}

beforeAll(async () => {
  ({ t, a, m, code, D1, member, admin } = await formWithDepartmentMember({}, FORM));
  const group = { name: '销售部', members: { departments: [D1] }, actions: ['view', 'create', 'edit'], viewScope: 'all', editScope: 'own', fieldRights: { Locked: 'readonly' } };
  expect((await a.raw('POST', '/v1/form/permission/group/save', { schemaCode: code, group })).body.successful).toBe(true);
  invoice = await invoicePicture();
}, 60_000);
afterAll(async () => {
  await stopOcr();
  await t?.close();
});

describe('OCR on the machine', () => {
  it('is refused until the plugin is installed, then installs with no settings', async () => {
    const fileId = await upload(member, invoice);
    expect((await m.raw('POST', '/v1/plugin/ocr/recognize', { fileId })).body).toMatchObject({ successful: false, errorCode: 430001 });
    expect((await m.get('/v1/plugin/ocr/status')).installed).toBe(false);
    const installed = await a.raw('POST', '/v1/plugin/install', { code: 'ocr' });
    expect(installed.body.successful, JSON.stringify(installed.body)).toBe(true);
    expect((await m.get('/v1/plugin/ocr/status')).installed).toBe(true);
  });

  it('reads the generated invoice with positions, in reading order', async () => {
    const fileId = await upload(member, invoice);
    const read = await m.post('/v1/plugin/ocr/recognize', { fileId });
    const texts = (read.lines as { text: string }[]).map((l) => l.text);
    expect(texts[0]).toBe('增值税专用发票');
    expect(texts).toContain(`发票号码：${INVOICE_VALUES.invoiceNumber}`);
    expect(texts).toContain(`购买方名称：${INVOICE_VALUES.buyerName}`);
    const number = (read.lines as { text: string; box: [number, number][]; confidence: number }[]).find((l) => l.text.includes(INVOICE_VALUES.invoiceNumber))!;
    // Drawn at x 500, baseline 130 in a 900 × 520 picture.
    expect(number.box[0]![0]).toBeGreaterThan(480);
    expect(number.box[0]![1]).toBeGreaterThan(90);
    expect(number.box[2]![1]).toBeLessThan(150);
    expect(number.confidence).toBeGreaterThan(0.8);
    expect(read).toMatchObject({ width: 900, height: 520 });
  }, 120_000);

  it('fills the form from the OCR control: mapped values through the save checks, read-only fields left alone', async () => {
    const fileId = await upload(member, invoice);
    const filled = await m.post('/v1/plugin/ocr/form/fill', { schemaCode: code, controlCode: 'Scan', fileId });
    expect(filled.values).toMatchObject({ InvoiceNo: INVOICE_VALUES.invoiceNumber, Buyer: INVOICE_VALUES.buyerName, Total: 1130, Tax: 130 });
    expect(String(filled.values.IssueDate)).toMatch(/^2026-11-(19T16|20T00)/);
    expect(filled.filled.sort()).toEqual(['Buyer', 'InvoiceNo', 'IssueDate', 'Tax', 'Total']);
    // A taxpayer number is no telephone number: left out and named. Locked is read-only for the member.
    expect(filled.issues.map((i: { field: string }) => i.field)).toEqual(['Phone']);
    expect(filled.values.Locked).toBeUndefined();
    expect(filled.fields.find((f: { code: string }) => f.code === 'invoiceCode').value).toBe(INVOICE_VALUES.invoiceCode);
    // Nothing was saved.
    expect((await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10 })).total).toBe(0);
    // The member saves what was filled; the picture stays with the record as the OCR control's value.
    const picture = { id: fileId, name: 'invoice.png', size: invoice.length, contentType: 'image/png' };
    const saved = await m.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { ...filled.values, Scan: [picture] } });
    const record = await m.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });
    expect(record.values).toMatchObject({ InvoiceNo: INVOICE_VALUES.invoiceNumber, Total: 1130, Scan: [picture] });
  }, 120_000);

  it('reads one picture at a time: a few wait their turn, more are told to try again', async () => {
    const small = await textPicture(240, 60, [{ text: '排队', x: 20, y: 40 }]);
    const ids = await Promise.all(Array.from({ length: 8 }, () => upload(member, small)));
    const answers = await Promise.all(ids.map((fileId) => m.raw('POST', '/v1/plugin/ocr/recognize', { fileId })));
    const codes = answers.map((r) => (r.body.successful ? 'ok' : r.body.errorCode));
    // One read and six waiting: the eighth is refused at once (HTTP 429), the others all read.
    expect(codes.filter((c) => c === 'ok')).toHaveLength(7);
    expect(codes.filter((c) => c === 480102)).toHaveLength(1);
    expect(answers.find((r) => !r.body.successful)!.status).toBe(429);
    expect(answers.find((r) => r.body.successful)!.body.data.lines[0].text).toBe('排队');
  }, 120_000);

  it("refuses another person's upload, a file that is not a picture, and a control that is not an OCR control", async () => {
    const adminsFile = await upload(admin, invoice);
    expect((await m.raw('POST', '/v1/plugin/ocr/recognize', { fileId: adminsFile })).body.errorCode).toBe(260001);
    const text = await upload(member, Buffer.from('这不是图片，只是一段文字而已。'.repeat(3)), 'note.png');
    expect((await m.raw('POST', '/v1/plugin/ocr/recognize', { fileId: text })).body.errorCode).toBe(480101);
    const fileId = await upload(member, invoice);
    expect((await m.raw('POST', '/v1/plugin/ocr/form/fill', { schemaCode: code, controlCode: 'Buyer', fileId })).body.errorCode).toBe(480110);
    expect((await m.raw('POST', '/v1/plugin/ocr/extract', { fileId, templateCode: 'noSuch' })).body.errorCode).toBe(480104);
    expect((await m.raw('POST', '/v1/plugin/ocr/recognize', { fileId: 'x' })).body.errorCode).toBe(777);
  });
});

const FIELD = { code: 'contractNo', name: '合同编号', anchors: ['合同编号'], pattern: '[A-Z]{2}\\d{6}' };

describe('recognition templates', () => {
  it('lists the built-ins first, read-only', async () => {
    const list = await m.get('/v1/toolkit/ai/recognition/template/list');
    expect(list.items.map((i: { templateCode: string }) => i.templateCode)).toEqual(['vatInvoice', 'idCard', 'businessLicense', 'bankCard']);
    expect(list.items.every((i: { builtIn: boolean }) => i.builtIn)).toBe(true);
    const idCard = await m.get('/v1/toolkit/ai/recognition/template?templateCode=idCard');
    expect(idCard.fields.map((f: { name: string }) => f.name)).toEqual(['姓名', '性别', '民族', '出生', '住址', '公民身份号码']);
    const body = { templateCode: 'vatInvoice', name: '改', fields: [FIELD] };
    expect((await a.raw('POST', '/v1/toolkit/ai/recognition/template/update', body)).body.errorCode).toBe(480105);
    expect((await a.raw('POST', '/v1/toolkit/ai/recognition/template/delete', { templateCode: 'idCard' })).body.errorCode).toBe(480105);
    expect((await a.raw('POST', '/v1/toolkit/ai/recognition/template/create', body)).body.errorCode).toBe(480106);
  });

  it('creates, reads, updates and deletes a custom template; members read but may not change', async () => {
    const body = { templateCode: 'contract', name: '合同', fields: [FIELD] };
    expect((await m.raw('POST', '/v1/toolkit/ai/recognition/template/create', body)).body.errorCode).toBe(480108);
    const created = await a.post('/v1/toolkit/ai/recognition/template/create', body);
    expect(created).toMatchObject({ templateCode: 'contract', builtIn: false, mode: 'rules', fields: [{ ...FIELD, direction: 'any', minLength: null }] });
    expect((await a.raw('POST', '/v1/toolkit/ai/recognition/template/create', body)).body.errorCode).toBe(480106);
    expect((await m.get('/v1/toolkit/ai/recognition/template?templateCode=contract')).name).toBe('合同');
    const updated = await a.post('/v1/toolkit/ai/recognition/template/update', { ...body, name: '采购合同', mode: 'model' });
    expect(updated).toMatchObject({ name: '采购合同', mode: 'model' });
    expect((await m.raw('POST', '/v1/toolkit/ai/recognition/template/delete', { templateCode: 'contract' })).body.errorCode).toBe(480108);
    expect((await a.raw('POST', '/v1/toolkit/ai/recognition/template/delete', { templateCode: 'contract' })).body.successful).toBe(true);
    expect((await a.raw('GET', '/v1/toolkit/ai/recognition/template?templateCode=contract')).body.errorCode).toBe(480104);
    expect((await a.raw('POST', '/v1/toolkit/ai/recognition/template/update', body)).body.errorCode).toBe(480104);
  });

  it('refuses bad input with catalogue errors and changes nothing', async () => {
    const create = (body: Record<string, unknown>) => a.raw('POST', '/v1/toolkit/ai/recognition/template/create', { templateCode: 'bad', name: '坏', fields: [FIELD], ...body });
    const field = (i: number) => ({ ...FIELD, code: `f${i}` });
    expect((await create({ fields: Array.from({ length: 31 }, (_, i) => field(i)) })).body).toMatchObject({ errorCode: 777 });
    expect((await create({ fields: [] })).body.errorCode).toBe(777);
    expect((await create({ templateCode: '1x-' })).body.errorCode).toBe(777);
    expect((await create({ fields: [{ ...FIELD, pattern: '(a+)+$' }] })).body).toMatchObject({ errorCode: 480107, errorMessage: expect.stringContaining('量词') });
    expect((await create({ fields: [FIELD, FIELD] })).body.errorCode).toBe(480107);
    expect((await create({ fields: [{ code: 'x', name: 'x', anchors: [] }] })).body.errorCode).toBe(480107);
    expect((await create({ fields: [{ ...FIELD, minLength: 9, maxLength: 3 }] })).body.errorCode).toBe(480107);
    expect((await create({ extra: 1 })).body.errorCode).toBe(777);
    const english = await t.app.inject({
      method: 'POST',
      url: '/v1/toolkit/ai/recognition/template/create',
      headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode, 'accept-language': 'en-US' },
      payload: { templateCode: 'bad', name: 'x', fields: [{ ...FIELD, pattern: '(a)\\1' }] },
    });
    expect(english.json()).toMatchObject({ errorCode: 480107, errorMessage: expect.stringMatching(/^The recognition template's field "contractNo" is wrong/) });
    // Exactly 30 fields is fine.
    expect((await create({ templateCode: 'thirty', fields: Array.from({ length: 30 }, (_, i) => field(i)) })).body.successful).toBe(true);
    const rows = await engineDb(t.database.db, admin.engineCode).selectFrom('recognition_templates').select('template_code').execute();
    expect(rows.map((r) => r.template_code)).toEqual(['thirty']);
  });

  it('keeps at most 200 templates an engine', async () => {
    const edb = engineDb(t.database.db, admin.engineCode);
    const have = (await edb.selectFrom('recognition_templates').select('template_code').execute()).length;
    const filler = Array.from({ length: 200 - have }, (_, i) => ({ template_code: `fill${i}`, name: `模板${i}`, fields: JSON.stringify([FIELD]), created_by: 'x', modified_by: 'x' }));
    await edb.insertInto('recognition_templates').values(filler).execute();
    const refused = await a.raw('POST', '/v1/toolkit/ai/recognition/template/create', { templateCode: 'oneMore', name: '再一个', fields: [FIELD] });
    expect(refused.body).toMatchObject({ errorCode: 480109, errorMessage: '识别模板最多 200 个' });
    await edb.deleteFrom('recognition_templates').where('template_code', 'like', 'fill%').execute();
    expect((await a.raw('POST', '/v1/toolkit/ai/recognition/template/create', { templateCode: 'oneMore', name: '再一个', fields: [FIELD] })).body.successful).toBe(true);
  });

  it('a template in model mode asks the chat model with the lines read; without AI its rules read', async () => {
    const fake = await startOpenAiFake();
    try {
      await a.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, apiKey: OPENAI_KEY, chatModel: 'qwen-chat' });
      await a.post('/v1/toolkit/ai/recognition/template/create', { templateCode: 'memo', name: '付款备忘', mode: 'model', fields: [{ code: 'amount', name: '金额', anchors: ['金额'] }] });
      const fileId = await upload(member, await textPicture(360, 70, [{ text: '金额：1000.00', x: 20, y: 45 }]));
      fake.script.push({ content: JSON.stringify({ amount: '壹仟元整' }) });
      const byModel = await m.post('/v1/plugin/ocr/extract', { fileId, templateCode: 'memo' });
      expect(byModel).toMatchObject({ by: 'model', fields: [{ code: 'amount', name: '金额', value: '壹仟元整' }] });
      const asked = fake.requests.at(-1)!.body as { messages: { content: string }[]; response_format: { json_schema: { schema: { required: string[] } } } };
      expect(asked.messages[1]!.content).toContain('金额：1000.00');
      expect(asked.response_format.json_schema.schema.required).toEqual(['amount']);
      // AI turned off: the same template reads by its labels.
      await a.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, chatModel: 'qwen-chat', enabled: false });
      const byRules = await m.post('/v1/plugin/ocr/extract', { fileId, templateCode: 'memo' });
      expect(byRules).toMatchObject({ by: 'rules', fields: [{ code: 'amount', value: '1000.00' }] });
      expect(fake.requests).toHaveLength(1);
    } finally {
      await fake.close();
    }
  }, 120_000);

  it("never shows or changes another engine's template", async () => {
    const other = await registerPerson(t.app, { engineName: '别家公司' });
    const o = orgClient(t.app, other);
    await o.post('/v1/toolkit/ai/recognition/template/create', { templateCode: 'secret', name: '别家模板', fields: [FIELD] });
    expect((await a.raw('GET', '/v1/toolkit/ai/recognition/template?templateCode=secret')).body.errorCode).toBe(480104);
    expect((await a.raw('POST', '/v1/toolkit/ai/recognition/template/delete', { templateCode: 'secret' })).body.errorCode).toBe(480104);
    expect((await a.raw('POST', '/v1/toolkit/ai/recognition/template/update', { templateCode: 'secret', name: '改', fields: [FIELD] })).body.errorCode).toBe(480104);
    expect((await a.get('/v1/toolkit/ai/recognition/template/list')).items.map((i: { templateCode: string }) => i.templateCode)).not.toContain('secret');
    expect((await o.get('/v1/toolkit/ai/recognition/template?templateCode=secret')).name).toBe('别家模板');
    // The plugin installed in this engine is not the other's.
    const fileId = await upload(other, invoice);
    expect((await o.raw('POST', '/v1/plugin/ocr/recognize', { fileId })).body.errorCode).toBe(430001);
  });
});

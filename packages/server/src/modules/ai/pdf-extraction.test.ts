import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { TestApp } from '../../../test/helpers.ts';
import { definition, formWithDepartmentMember } from '../../../test/form-helpers.ts';
import type { OrgClient } from '../../../test/org-helpers.ts';
import { OPENAI_KEY, startOpenAiFake, type OpenAiFake } from '../../../test/openai-fake.ts';
import { createPdfRenderer } from '../print/print-pdf.ts';
import { pdfText } from './pdf-text.ts';

// Form extraction from a PDF (docs/decisions/0126): the text layer is read on the server (pdfjs-dist, no outside
// program) and goes the text path; a PDF with no text layer, too many pages or broken bytes is refused in words.
// The PDF with Chinese text is printed by Chromium, as the platform's own print makes them (a CID font, its ToUnicode).

let t: TestApp, a: OrgClient, m: OrgClient, code: string;
let member: { token: string; engineCode: string };
let fake: OpenAiFake;
let invoicePdf: Buffer;

const FORM = definition([
  { type: 'textBox', code: 'Buyer', options: { displayName: '购买方' } },
  { type: 'textBox', code: 'InvoiceNo', options: { displayName: '发票号码' } },
  { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
  { type: 'dateTime', code: 'IssuedOn', options: { displayName: '开票日期' } },
]);

const INVOICE_HTML = `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:"WenQuanYi Micro Hei",sans-serif;font-size:14px}</style></head>
<body><h1>增值税电子普通发票</h1><p>发票号码：24332000000012345678</p><p>开票日期：2026年11月20日</p>
<p>购买方名称：杭州青禾贸易有限公司</p><p>价税合计（小写）：¥1,130.00</p></body></html>`;

async function pdfOf(pages: number, text: string | null): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i += 1) {
    const page = doc.addPage([300, 300]);
    if (text) page.drawText(`${text} ${i + 1}`, { x: 20, y: 250, size: 12, font });
    else page.drawRectangle({ x: 20, y: 20, width: 100, height: 60 });
  }
  return Buffer.from(await doc.save());
}

beforeAll(async () => {
  ({ t, a, m, code, member } = await formWithDepartmentMember({}, FORM));
  fake = await startOpenAiFake();
  await a.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, apiKey: OPENAI_KEY, chatModel: 'qwen-chat' });
  const renderer = createPdfRenderer();
  try {
    invoicePdf = (await renderer.render(INVOICE_HTML)).pdf;
  } finally {
    await renderer.close();
  }
}, 60_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

async function upload(bytes: Buffer, fileName: string): Promise<string> {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/v1/file/upload',
    query: { scene: 'ocrAttachment', fileName },
    headers: { authorization: `Bearer ${member.token}`, enginecode: member.engineCode, 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
  expect(answer.json().successful, answer.body).toBe(true);
  return answer.json().data.fileId as string;
}

const extract = (fileId: string, text?: string) => m.raw('POST', '/v1/ai-service/agent/form/extraction', { schemaCode: code, fileId, ...(text ? { text } : {}) });

describe('form extraction from a PDF', () => {
  it('reads the Chinese text layer of a printed PDF', async () => {
    const text = await pdfText(invoicePdf);
    for (const line of ['增值税电子普通发票', '发票号码：24332000000012345678', '购买方名称：杭州青禾贸易有限公司', '¥1,130.00']) expect(text).toContain(line);
  });

  it('fills the form from an uploaded PDF through the text path', async () => {
    fake.script.push({ content: JSON.stringify({ Buyer: '杭州青禾贸易有限公司', InvoiceNo: '24332000000012345678', Amount: 1130, IssuedOn: '2026-11-20' }) });
    const res = await extract(await upload(invoicePdf, '发票.pdf'), '这是一张发票');
    expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.values).toMatchObject({ Buyer: '杭州青禾贸易有限公司', InvoiceNo: '24332000000012345678', Amount: 1130 });
    expect(res.body.data.filled).toEqual(['Buyer', 'InvoiceNo', 'Amount', 'IssuedOn']);
    const asked = fake.requests.at(-1)!.body as { model: string; messages: { role: string; content: unknown }[] };
    // The chat model (no vision model is configured), the person's words and then the PDF's text.
    expect(asked.model).toBe('qwen-chat');
    const sent = asked.messages[1]!.content as string;
    expect(typeof sent).toBe('string');
    expect(sent.startsWith('这是一张发票\n\n')).toBe(true);
    expect(sent).toContain('购买方名称：杭州青禾贸易有限公司');
    // Nothing saved.
    expect((await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10 })).total).toBe(0);
  });

  it('refuses a PDF with no text layer, with too many pages, or broken, before any model call', async () => {
    const before = fake.requests.length;
    expect((await extract(await upload(await pdfOf(1, null), 'scan.pdf'))).body.errorCode).toBe(480203);
    const long = await extract(await upload(await pdfOf(21, 'Page'), 'long.pdf'));
    expect(long.body.errorCode).toBe(480204);
    expect(long.body.errorMessage).toContain('20');
    expect((await extract(await upload(Buffer.from('%PDF-1.7\nthis is not really a pdf at all\n%%EOF'), 'broken.pdf'))).body.errorCode).toBe(480205);
    expect(fake.requests.length).toBe(before);
    // A text-only PDF of the bound's pages is read.
    expect(await pdfText(await pdfOf(20, 'Page'))).toContain('Page 20');
  });
});

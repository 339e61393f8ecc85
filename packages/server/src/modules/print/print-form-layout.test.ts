import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { type OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { pageTexts, words } from '../../../test/pdf-pages.ts';

// test-databases: pglite — what is printed is the subject.

// The form's own layout printed with no template (issue 24; docs/decisions/0068): a multi-line text pushes the rows
// below it down instead of running over them, an association prints the associated record's name (not its id), and a
// hand-sign field (an uploaded image file) is drawn — a signed link for the browser, inline bytes in the PDF.

let t: TestApp, a: OrgClient, admin: { token: string; engineCode: string }, code: string, customerName: string, customerId: string;

async function upload(bytes: Buffer, name: string, scene: string) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/file/upload', query: { scene, fileName: name }, headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode, 'content-type': 'application/octet-stream' }, payload: bytes });
  return res.json().data as { fileId: string; size: number };
}

const imagesIn = (pdf: Buffer): number => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-layout-'));
  try {
    writeFileSync(path.join(dir, 'a.pdf'), pdf);
    return execFileSync('pdfimages', ['-list', path.join(dir, 'a.pdf')]).toString().trim().split('\n').slice(2).length;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

beforeAll(async () => {
  let appCode: string;
  ({ t, a, appCode, admin } = await adminWithApp());
  const customers = (await createForm(a, appCode, { displayName: '客户' })).code as string;
  await publish(a, customers, definition([{ type: 'textBox', code: 'CustName', options: { displayName: '客户名称' } }]));
  customerId = (await a.post('/v1/form/action/execute', { schemaCode: customers, actionCode: 'Submit', values: { CustName: '青松建材' } })).objectId;
  customerName = (await a.post('/v1/form/loaddata', { schemaCode: customers, objectId: customerId })).system.Name ?? '';
  code = (await createForm(a, appCode, { displayName: '送货单' })).code as string;
  await publish(a, code, definition([
    { type: 'textArea', code: 'Note', options: { displayName: '备注' } },
    { type: 'associationQuery', code: 'Customer', options: { displayName: '客户', schemaCode: customers } },
    { type: 'textBox', code: 'After', options: { displayName: '之后' } },
    { type: 'handSign', code: 'Sign', options: { displayName: '签名' } },
  ]));
});
afterAll(() => t.close());

describe('the form layout printed without a template', () => {
  it('pushes the next row below a multi-line text, names the associated record, draws the hand signature', async () => {
    const png = await sharp({ create: { width: 120, height: 48, channels: 3, background: '#ffffff' } })
      .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="48"><path d="M5 40 C 30 0, 60 48, 115 8" stroke="#000" stroke-width="5" fill="none"/></svg>') }])
      .png()
      .toBuffer();
    const sign = await upload(png, 'sign.png', 'handSign');
    const note = ['第一行备注', '第二行备注', '第三行备注', '第四行备注'].join('\n');
    const objectId = (await a.post('/v1/form/action/execute', {
      schemaCode: code, actionCode: 'Save',
      values: { Note: note, Customer: customerId, After: '下一行', Sign: { id: sign.fileId, name: 'sign.png', size: sign.size, contentType: 'image/png' } },
    })).objectId;

    // The browser's data: the association's name, the signature as a signed link it can load.
    const data = await a.post('/v1/toolkit/print/data', { schemaCode: code, objectIds: [objectId] });
    const doc = data.sheet.documents[0];
    expect(customerName).not.toBe('');
    expect(doc.values.Customer).toBe(customerName);
    expect(doc.values.Customer).not.toContain(customerId);
    expect(doc.images.Sign).toMatch(new RegExp(`^/v1/file/download/${sign.fileId}\\?`));
    expect((await t.app.inject({ method: 'GET', url: doc.images.Sign })).headers['content-type']).toContain('image/png');

    const { taskId } = await a.post('/v1/toolkit/print/paper', { schemaCode: code, objectIds: [objectId] });
    while (await t.app.extras.jobs.runOnce());
    const done = await a.post('/v1/toolkit/print/progress', { taskId });
    expect(done.state).toBe('Complete');
    const pdf = (await t.app.inject({ method: 'GET', url: done.downloadUrl })).rawPayload;
    const placed = words(pdf);
    const at = (text: string) => placed.find((w) => w.text.includes(text));
    // Note and Customer share the first row; After starts the second, below the note's fourth line.
    const fourth = at('第四行备注')!, after = at('之后')!;
    expect(fourth.y).toBeGreaterThan(at('第一行备注')!.y + 10);
    expect(after.y).toBeGreaterThan(fourth.y + 3);
    expect(pageTexts(pdf)[0]).toContain(customerName);
    expect(pageTexts(pdf)[0]).not.toContain(customerId);
    // The signature is an image in the PDF (the only one on the page).
    expect(imagesIn(pdf)).toBe(1);
  }, 120_000);
});

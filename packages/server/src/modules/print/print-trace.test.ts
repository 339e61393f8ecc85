import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { pageTexts } from '../../../test/pdf-pages.ts';

// test-databases: pglite — the trace comes from the workflow service; the subject is what the print shows of it.

// The approval trace with hand signatures (issue 24; docs/decisions/0050): a workflow record approved with an opinion
// and a signature prints its trace — node, handler by name, action, opinion — and the signature as an image, in the
// browser's data and in the PDF (where poppler finds the image).

let t: TestApp, a: OrgClient, code: string, approver: OrgClient, approverName: string;
let signature: string;
let approverAuth: { authorization: string; enginecode: string };

beforeAll(async () => {
  let appCode: string, admin;
  ({ t, a, appCode, admin } = await adminWithApp());
  const person = await addMember(t, admin, { name: '审批人甲' });
  approverName = '审批人甲';
  approver = nodeClient(t.app, person);
  approverAuth = { authorization: `Bearer ${person.token}`, enginecode: person.engineCode };
  code = (await createForm(a, appCode, { displayName: '费用报销' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, code, definition([{ type: 'textBox', code: 'Reason', options: { displayName: '事由' } }]));
  await a.post('/v1/workflow/template/save', {
    schemaCode: code,
    template: {
      activities: [
        { type: 'Start', code: 'Start', name: '发起' },
        { type: 'Approve', code: 'A', name: '部门审批', participants: { sources: [{ type: 'users', ids: [person.userId] }] } },
        { type: 'End', code: 'End', name: '结束' },
      ],
      routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }],
    },
  });
  await a.post('/v1/workflow/template/publish', { schemaCode: code });
  const png = await sharp({ create: { width: 120, height: 48, channels: 3, background: '#ffffff' } })
    .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="48"><path d="M5 40 C 30 0, 60 48, 115 8" stroke="#000" stroke-width="5" fill="none"/></svg>') }])
    .png()
    .toBuffer();
  signature = `data:image/png;base64,${png.toString('base64')}`;
});
afterAll(() => t.close());

describe('the approval trace', () => {
  it('prints node, handler, action, opinion and the hand signature, in the browser data and in the PDF', async () => {
    const objectId = (await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Reason: '差旅' } })).objectId;
    const item = (await approver.get('/v1/workflow/instance/info', { schemaCode: code, objectId })).myItems[0].workItemId;
    await approver.post('/v1/workflow/instance/submit', { workItemId: item, opinion: { text: '同意报销', signature } });

    const data = await a.post('/v1/toolkit/print/data', { schemaCode: code, objectIds: [objectId] });
    expect(data.layout.elements.some((e: { type: string }) => e.type === 'approvalTrace')).toBe(true);
    const signed = data.sheet.documents[0].trace.find((x: { opinion: string }) => x.opinion === '同意报销');
    expect(signed).toMatchObject({ activity: '部门审批', user: approverName, signature });

    const { taskId } = await a.post('/v1/toolkit/print/paper', { schemaCode: code, objectIds: [objectId] });
    while (await t.app.extras.jobs.runOnce());
    const done = await a.post('/v1/toolkit/print/progress', { taskId });
    expect(done.state).toBe('Complete');
    const pdf = (await t.app.inject({ method: 'GET', url: done.downloadUrl })).rawPayload;
    const text = pageTexts(pdf).join('\n');
    for (const word of ['部门审批', approverName, '同意报销', '签名']) expect(text).toContain(word);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-trace-'));
    try {
      writeFileSync(path.join(dir, 'a.pdf'), pdf);
      const images = execFileSync('pdfimages', ['-list', path.join(dir, 'a.pdf')]).toString().trim().split('\n').slice(2);
      expect(images.length).toBeGreaterThanOrEqual(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('draws a signature given as a link to an uploaded image in the PDF too (its bytes read into the document)', async () => {
    const png = Buffer.from(signature.split(',')[1]!, 'base64');
    const up = await t.app.inject({ method: 'POST', url: '/v1/file/upload', query: { scene: 'handSign', fileName: 'sign.png' }, headers: { ...approverAuth, 'content-type': 'application/octet-stream' }, payload: png });
    const fileId = up.json().data.fileId as string;
    const link = (await approver.post('/v1/file/urls/byfileids', { fileIds: [fileId] })).list[0].url as string;
    expect(link).toMatch(new RegExp(`^/v1/file/download/${fileId}`));
    const objectId = (await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Reason: '培训' } })).objectId;
    const item = (await approver.get('/v1/workflow/instance/info', { schemaCode: code, objectId })).myItems[0].workItemId;
    await approver.post('/v1/workflow/instance/submit', { workItemId: item, opinion: { text: '同意培训', signature: link } });

    const { taskId } = await a.post('/v1/toolkit/print/paper', { schemaCode: code, objectIds: [objectId] });
    while (await t.app.extras.jobs.runOnce());
    const done = await a.post('/v1/toolkit/print/progress', { taskId });
    expect(done.state).toBe('Complete');
    const pdf = (await t.app.inject({ method: 'GET', url: done.downloadUrl })).rawPayload;
    expect(pageTexts(pdf).join('\n')).toContain('同意培训');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-trace-'));
    try {
      writeFileSync(path.join(dir, 'a.pdf'), pdf);
      const images = execFileSync('pdfimages', ['-list', path.join(dir, 'a.pdf')]).toString().trim().split('\n').slice(2);
      expect(images).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

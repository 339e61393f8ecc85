import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PDFDocument, StandardFonts } from 'pdf-lib';

// What the two e-sign fakes (tsign-fake.ts, fdd-fake.ts) share: the flows they keep, each signer's signing page (签署,
// 拒签, and for a signer who signs for the organisation a seal-approval step: 用印审批通过), and the signed PDF (the
// original with a page stamped). Each fake speaks its own provider's protocol around this and signs its callbacks its
// own way; `emit` is that face's callback sender.

export type FakeSignerState = 'waiting' | 'signing' | 'approval' | 'signed' | 'refused';

export interface FakeSigner {
  order: number;
  name: string;
  mobile: string;
  forOrganization: boolean;
  state: FakeSignerState;
  /** The signing page's own secret (its link is the permission, as the providers' are). */
  token: string;
}

export interface FakeFlow {
  id: string;
  title: string;
  document: Buffer;
  notifyUrl: string;
  signers: FakeSigner[];
  status: 'running' | 'finished' | 'refused' | 'revoked';
  signed?: Buffer;
}

export type FakeEvent = { kind: 'signed' | 'approval' | 'refused'; flow: FakeFlow; signer: FakeSigner; reason?: string } | { kind: 'finished' | 'revoked' | 'flowRefused'; flow: FakeFlow };

/** How a fake hands a callback to the platform: a real POST by default; API tests inject it into the app. */
export type Deliver = (url: string, request: { headers: Record<string, string>; body: string }) => Promise<number>;

export const httpDeliver: Deliver = async (url, request) => {
  const response = await fetch(url, { method: 'POST', headers: request.headers, body: request.body });
  await response.arrayBuffer();
  return response.status;
};

export async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STATE_TEXT: Record<FakeSignerState, string> = { waiting: '等待前序签署人', signing: '待签署', approval: '已签署，等待企业用印审批', signed: '已签署', refused: '已拒签' };

export class FakeFlows {
  readonly flows = new Map<string, FakeFlow>();
  /** Callbacks the platform did not answer 200 to. */
  readonly refusedCallbacks: number[] = [];

  constructor(
    private readonly idPrefix: string,
    private readonly emit: (event: FakeEvent) => Promise<void>,
  ) {}

  create(input: { title: string; document: Buffer; notifyUrl: string; signers: Omit<FakeSigner, 'state' | 'token'>[] }): FakeFlow {
    const signers = [...input.signers].sort((a, b) => a.order - b.order).map((s, i) => ({ ...s, state: (i === 0 ? 'signing' : 'waiting') as FakeSignerState, token: randomBytes(12).toString('hex') }));
    const flow: FakeFlow = { id: `${this.idPrefix}${randomBytes(8).toString('hex')}`, title: input.title, document: input.document, notifyUrl: input.notifyUrl, signers, status: 'running' };
    this.flows.set(flow.id, flow);
    return flow;
  }

  signerOf(flowId: string, order: number): { flow: FakeFlow; signer: FakeSigner } {
    const flow = this.flows.get(flowId);
    const signer = flow?.signers.find((s) => s.order === order);
    if (!flow || !signer) throw new Error(`no signer ${order} in ${flowId}`);
    return { flow, signer };
  }

  /** A signer presses 签署, 拒签 or (for the organisation) 用印审批通过; the callbacks go out before it answers. */
  async act(flowId: string, order: number, action: 'sign' | 'refuse' | 'approve', reason = ''): Promise<void> {
    const { flow, signer } = this.signerOf(flowId, order);
    if (flow.status !== 'running') throw new Error(`flow ${flowId} is ${flow.status}`);
    if (action === 'approve') {
      if (signer.state !== 'approval') throw new Error(`signer ${order} is not waiting for approval`);
      signer.state = 'signed';
      await this.emit({ kind: 'signed', flow, signer });
      return this.advance(flow);
    }
    if (signer.state !== 'signing') throw new Error(`signer ${order} may not act now (${signer.state})`);
    if (action === 'refuse') {
      signer.state = 'refused';
      flow.status = 'refused';
      await this.emit({ kind: 'refused', flow, signer, reason: reason || '不同意' });
      await this.emit({ kind: 'flowRefused', flow });
      return;
    }
    if (signer.forOrganization) {
      signer.state = 'approval';
      await this.emit({ kind: 'approval', flow, signer });
      return;
    }
    signer.state = 'signed';
    await this.emit({ kind: 'signed', flow, signer });
    return this.advance(flow);
  }

  private async advance(flow: FakeFlow): Promise<void> {
    const next = flow.signers.find((s) => s.state === 'waiting');
    if (next) {
      next.state = 'signing';
      return;
    }
    if (flow.signers.every((s) => s.state === 'signed')) {
      flow.status = 'finished';
      flow.signed = await stampPdf(flow.document, flow.signers);
      await this.emit({ kind: 'finished', flow });
    }
  }

  async revoke(flowId: string): Promise<boolean> {
    const flow = this.flows.get(flowId);
    if (!flow || flow.status !== 'running') return false;
    flow.status = 'revoked';
    await this.emit({ kind: 'revoked', flow });
    return true;
  }

  /** GET and POST /sign/:flowId/:order?token=: the signing page and its buttons; undefined when the path is another's. */
  async page(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const match = /^\/sign\/([^/]+)\/(\d+)(\/act)?$/.exec(url.pathname);
    if (!match) return false;
    const flow = this.flows.get(match[1]!);
    const signer = flow?.signers.find((s) => s.order === Number(match[2]));
    const token = url.searchParams.get('token') ?? '';
    if (!flow || !signer || token !== signer.token) {
      res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><meta charset="utf-8"><p>签署链接无效</p>');
      return true;
    }
    if (match[3] && req.method === 'POST') {
      const form = new URLSearchParams((await bodyOf(req)).toString('utf8'));
      const action = form.get('action');
      if (action === 'sign' || action === 'refuse' || action === 'approve') await this.act(flow.id, signer.order, action, form.get('reason') ?? '');
      res.writeHead(303, { location: `${url.pathname.replace(/\/act$/, '')}?token=${token}` });
      res.end();
      return true;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(signingPage(flow, signer, `${url.pathname}/act?token=${token}`));
    return true;
  }
}

function signingPage(flow: FakeFlow, signer: FakeSigner, action: string): string {
  const buttons =
    flow.status !== 'running'
      ? ''
      : signer.state === 'signing'
        ? `<form method="post" action="${escape(action)}"><input type="hidden" name="action" value="sign"><button type="submit">签署</button></form>
           <form method="post" action="${escape(action)}"><input type="hidden" name="action" value="refuse"><input name="reason" aria-label="拒签原因" placeholder="拒签原因"><button type="submit">拒签</button></form>`
        : signer.state === 'approval'
          ? `<form method="post" action="${escape(action)}"><input type="hidden" name="action" value="approve"><button type="submit">用印审批通过</button></form>`
          : '';
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escape(flow.title)} - 签署</title>
<style>body{font-family:sans-serif;margin:32px}form{margin:12px 0}button{padding:6px 20px;margin-right:8px}</style></head>
<body><h1>${escape(flow.title)}</h1><p>签署人：${escape(signer.name)}（${signer.forOrganization ? '企业' : '个人'}）</p>
<p id="state">状态：${STATE_TEXT[signer.state]}</p><p>流程：${flow.status === 'running' ? '签署中' : flow.status === 'finished' ? '已完成' : flow.status === 'refused' ? '已拒签' : '已撤销'}</p>${buttons}</body></html>`;
}

/** The original with one more page naming who signed (an ASCII stamp: the standard fonts have no Chinese). */
export async function stampPdf(original: Buffer, signers: readonly FakeSigner[]): Promise<Buffer> {
  const doc = await PDFDocument.load(original);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('SIGNED', { x: 60, y: 760, size: 28, font });
  signers.forEach((s, i) => page.drawText(`#${s.order} ${s.mobile}${s.forOrganization ? ' (seal approved)' : ''}`, { x: 60, y: 720 - i * 24, size: 14, font }));
  doc.setSubject(`signed by ${signers.map((s) => s.mobile).join(',')}`);
  return Buffer.from(await doc.save());
}

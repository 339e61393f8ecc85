import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveFake } from './fake-http.ts';
import { bodyOf, FakeFlows, httpDeliver, json, type Deliver, type FakeEvent } from './esign-fake-core.ts';

// A fake e签宝 (open API v3) for the e-sign control (docs/decisions/0123, e-signature). It checks every API request
// the way e签宝 documents: the app id, Content-MD5 = Base64(MD5(body)) against the body received, and
// X-Tsign-Open-Ca-Signature = Base64(HmacSHA256(appSecret, "METHOD\nAccept\nContent-MD5\nContent-Type\nDate\n" +
// path and query)); a wrong one is answered 401. Its callbacks are signed as e签宝 signs them: X-Tsign-Open-SIGNATURE
// = hex(HmacSHA256(appSecret, timestamp + body)) with X-Tsign-Open-TIMESTAMP.

export const TSIGN = { appId: 'tsign-app-7001', appSecret: 'tsign-secret-Zq81' } as const;

export interface TsignFake {
  url: string;
  flows: FakeFlows;
  /** API requests refused for their signature. */
  refused: string[];
  /** Every API path called, in order. */
  calls: string[];
  /** The callbacks sent (their JSON bodies). */
  callbacks: Record<string, unknown>[];
  /** Signs and sends a callback body as e签宝 would (tests replay or alter it). */
  send(notifyUrl: string, body: string, options?: { secret?: string; timestamp?: string }): Promise<number>;
  close(): Promise<void>;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const md5Of = (body: Buffer) => (body.length ? createHash('md5').update(body).digest('base64') : '');

function expectedSignature(req: IncomingMessage, url: URL, secret: string): string {
  const h = (name: string) => String(req.headers[name] ?? '');
  const toSign = `${req.method}\n${h('accept')}\n${h('content-md5')}\n${h('content-type')}\n${h('date')}\n${url.pathname}${url.search}`;
  return createHmac('sha256', secret).update(toSign, 'utf8').digest('base64');
}

export async function startTsignFake(options: { deliver?: Deliver } = {}): Promise<TsignFake> {
  const deliver = options.deliver ?? httpDeliver;
  const refused: string[] = [];
  const calls: string[] = [];
  const callbacks: Record<string, unknown>[] = [];
  const uploads = new Map<string, { md5: string; name: string; bytes?: Buffer }>();
  let base = '';

  const send = async (notifyUrl: string, body: string, o: { secret?: string; timestamp?: string } = {}) => {
    const timestamp = o.timestamp ?? String(Date.now());
    const signature = createHmac('sha256', o.secret ?? TSIGN.appSecret).update(timestamp + body, 'utf8').digest('hex');
    return deliver(notifyUrl, { headers: { 'content-type': 'application/json', 'X-Tsign-Open-SIGNATURE': signature, 'X-Tsign-Open-TIMESTAMP': timestamp }, body });
  };
  const emit = async (event: FakeEvent) => {
    const payload: Record<string, unknown> =
      !('signer' in event)
        ? { action: 'SIGN_FLOW_COMPLETE', signFlowId: event.flow.id, signFlowStatus: event.kind === 'finished' ? 2 : event.kind === 'revoked' ? 3 : 7, timestamp: Date.now() }
        : {
            action: 'SIGN_MISSON_COMPLETE',
            signFlowId: event.flow.id,
            signOrder: event.signer.order,
            signResult: event.kind === 'signed' ? 2 : event.kind === 'refused' ? 4 : 5,
            resultDescription: event.kind === 'refused' ? event.reason : event.kind === 'approval' ? '等待企业用印审批' : '签署完成',
            operator: { psnAccount: { accountMobile: event.signer.mobile } },
            timestamp: Date.now(),
          };
    callbacks.push(payload);
    const status = await send(event.flow.notifyUrl, JSON.stringify(payload));
    if (status !== 200) flows.refusedCallbacks.push(status);
  };
  const flows = new FakeFlows('tsf', emit);

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): Promise<void> {
    calls.push(`${req.method} ${url.pathname}`);
    const signature = String(req.headers['x-tsign-open-ca-signature'] ?? '');
    const bad =
      req.headers['x-tsign-open-app-id'] !== TSIGN.appId ||
      req.headers['x-tsign-open-auth-mode'] !== 'Signature' ||
      !/^\d{13}$/.test(String(req.headers['x-tsign-open-ca-timestamp'] ?? '')) ||
      String(req.headers['content-md5'] ?? '') !== md5Of(body) ||
      !same(signature, expectedSignature(req, url, TSIGN.appSecret));
    if (bad) {
      refused.push(url.pathname);
      return json(res, 401, { code: 401, message: '签名校验失败' });
    }
    const input = body.length ? (JSON.parse(body.toString('utf8')) as Record<string, any>) : {};
    const ok = (data: unknown) => json(res, 200, { code: 0, message: '成功', data });
    if (req.method === 'POST' && url.pathname === '/v3/files/file-upload-url') {
      const fileId = `file${randomBytes(6).toString('hex')}`;
      uploads.set(fileId, { md5: String(input.contentMd5), name: String(input.fileName) });
      return ok({ fileId, fileUploadUrl: `${base}/upload/${fileId}` });
    }
    if (req.method === 'POST' && url.pathname === '/v3/sign-flow/create-by-file') {
      const doc = uploads.get(String(input.docs?.[0]?.fileId));
      if (!doc?.bytes) return json(res, 200, { code: 1435002, message: '文件未上传' });
      const signers = (input.signers as any[]).map((s) => ({ order: Number(s.signConfig.signOrder), name: String(s.psnSignerInfo.psnInfo.psnName), mobile: String(s.psnSignerInfo.psnAccount), forOrganization: s.signerType === 1 }));
      const flow = flows.create({ title: String(input.signFlowConfig.signFlowTitle), document: doc.bytes, notifyUrl: String(input.signFlowConfig.notifyUrl), signers });
      return ok({ signFlowId: flow.id });
    }
    const flowPath = /^\/v3\/sign-flow\/([^/]+)\/(sign-url|revoke|file-download-url|detail)$/.exec(url.pathname);
    const flow = flowPath ? flows.flows.get(decodeURIComponent(flowPath[1]!)) : undefined;
    if (flowPath && !flow) return json(res, 200, { code: 1437001, message: '签署流程不存在' });
    if (flow && flowPath![2] === 'detail') return ok({ signFlowId: flow.id, signFlowStatus: flow.status === 'running' ? 1 : 2 });
    if (flow && flowPath![2] === 'sign-url') {
      const signer = flow.signers.find((s) => s.mobile === input.operator?.psnAccount);
      if (!signer) return json(res, 200, { code: 1437002, message: '签署人不存在' });
      return ok({ url: `${base}/sign/${flow.id}/${signer.order}?token=${signer.token}` });
    }
    if (flow && flowPath![2] === 'revoke') {
      if (!(await flows.revoke(flow.id))) return json(res, 200, { code: 1437003, message: '流程已结束，不能撤销' });
      return ok(null);
    }
    if (flow && flowPath![2] === 'file-download-url') {
      if (!flow.signed) return json(res, 200, { code: 1437004, message: '流程未完成' });
      return ok({ files: [{ fileId: flow.id, fileName: `${flow.title}.pdf`, downloadUrl: `${base}/download/${flow.id}?token=${flow.signers[0]!.token}` }] });
    }
    return json(res, 404, { code: 404, message: 'not found' });
  }

  const server = await serveFake(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (await flows.page(req, res, url)) return;
    const body = await bodyOf(req);
    const upload = /^\/upload\/(\w+)$/.exec(url.pathname);
    if (upload && req.method === 'PUT') {
      const doc = uploads.get(upload[1]!);
      // The bytes must be those whose MD5 was announced.
      if (!doc || md5Of(body) !== doc.md5 || req.headers['content-md5'] !== doc.md5) return json(res, 400, { code: 400, message: 'Content-MD5 不匹配' });
      doc.bytes = body;
      return json(res, 200, { code: 0 });
    }
    const download = /^\/download\/(\w+)$/.exec(url.pathname);
    if (download) {
      const flow = flows.flows.get(download[1]!);
      if (!flow?.signed || url.searchParams.get('token') !== flow.signers[0]!.token) return json(res, 403, { code: 403 });
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(flow.signed.length) });
      return res.end(flow.signed);
    }
    if (url.pathname.startsWith('/v3/')) return api(req, res, url, body);
    return json(res, 404, { code: 404 });
  });
  base = server.url;
  return { url: server.url, flows, refused, calls, callbacks, send, close: server.close };
}

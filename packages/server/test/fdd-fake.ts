import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveFake } from './fake-http.ts';
import { bodyOf, FakeFlows, httpDeliver, json, type Deliver, type FakeEvent } from './esign-fake-core.ts';

// A fake 法大大 (FASC open API v5) for the e-sign control (docs/decisions/0123, e-signature). Every API request is a
// form post of bizContent with X-FASC-* headers; it checks them as FASC documents: the app id, a fresh timestamp, a
// nonce not seen before, the access token (but for the token call itself), and X-FASC-Sign = hex(HmacSHA256(key =
// HmacSHA256(appSecret, timestamp), sha256hex(sorted "k=v&…" of the headers and bizContent))); a wrong one is
// answered with code 100003. Its callbacks (X-FASC-Event, form body bizContent) are signed the same way.

export const FDD = { appId: 'fdd-app-80000123', appSecret: 'fdd-secret-Kp29x' } as const;

export interface FddFake {
  url: string;
  flows: FakeFlows;
  refused: string[];
  calls: string[];
  tokensIssued: number;
  callbacks: { event: string; biz: Record<string, unknown> }[];
  /** Signs and sends a callback as FASC would (tests replay or alter it). */
  send(notifyUrl: string, event: string, bizContent: string, options?: { secret?: string; timestamp?: string; nonce?: string }): Promise<number>;
  close(): Promise<void>;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function sign(secret: string, timestamp: string, params: Record<string, string | undefined>): string {
  const text = Object.keys(params)
    .filter((k) => params[k])
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const key = createHmac('sha256', secret).update(timestamp).digest();
  return createHmac('sha256', key).update(createHash('sha256').update(text).digest('hex')).digest('hex');
}

export async function startFddFake(options: { deliver?: Deliver } = {}): Promise<FddFake> {
  const deliver = options.deliver ?? httpDeliver;
  const refused: string[] = [];
  const calls: string[] = [];
  const callbacks: FddFake['callbacks'] = [];
  const nonces = new Set<string>();
  const tokens = new Set<string>();
  const uploads = new Map<string, Buffer | null>();
  let base = '';
  const state = { tokensIssued: 0 };

  const send: FddFake['send'] = async (notifyUrl, event, bizContent, o = {}) => {
    const timestamp = o.timestamp ?? String(Date.now());
    const params = { 'X-FASC-App-Id': FDD.appId, 'X-FASC-Sign-Type': 'HMAC-SHA256', 'X-FASC-Timestamp': timestamp, 'X-FASC-Nonce': o.nonce ?? randomBytes(16).toString('hex'), 'X-FASC-Event': event };
    const headers = { ...params, 'X-FASC-Sign': sign(o.secret ?? FDD.appSecret, timestamp, { ...params, bizContent }), 'content-type': 'application/x-www-form-urlencoded' };
    return deliver(notifyUrl, { headers, body: new URLSearchParams({ bizContent }).toString() });
  };
  const emit = async (e: FakeEvent) => {
    const biz: Record<string, unknown> = { signTaskId: e.flow.id, eventTime: String(Date.now()) };
    let event: string;
    if (e.kind === 'finished') event = 'sign-task-finished';
    else if (e.kind === 'revoked') event = 'sign-task-canceled';
    else if (e.kind === 'flowRefused') event = 'sign-task-abolished';
    else if (e.kind === 'signed' || e.kind === 'approval' || e.kind === 'refused') {
      biz.actorId = `signer-${e.signer.order}`;
      event = e.kind === 'signed' ? 'sign-task-signed' : e.kind === 'approval' ? 'sign-task-seal-pending' : 'sign-task-sign-rejected';
      if (e.kind === 'refused') biz.rejectReason = e.reason;
    } else return;
    callbacks.push({ event, biz });
    const status = await send(e.flow.notifyUrl, event, JSON.stringify(biz));
    if (status !== 200) flows.refusedCallbacks.push(status);
  };
  const flows = new FakeFlows('fdd', emit);

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): Promise<void> {
    calls.push(url.pathname);
    const h = (name: string) => (req.headers[name.toLowerCase()] as string | undefined) ?? undefined;
    const bizContent = new URLSearchParams(body.toString('utf8')).get('bizContent') ?? undefined;
    const timestamp = h('X-FASC-Timestamp') ?? '';
    const nonce = h('X-FASC-Nonce') ?? '';
    const params: Record<string, string | undefined> = { bizContent };
    for (const name of ['X-FASC-App-Id', 'X-FASC-Sign-Type', 'X-FASC-Timestamp', 'X-FASC-Nonce', 'X-FASC-Api-SubVersion', 'X-FASC-AccessToken', 'X-FASC-Grant-Type']) params[name] = h(name);
    const isTokenCall = url.pathname === '/service/get-access-token';
    const bad =
      h('X-FASC-App-Id') !== FDD.appId ||
      h('X-FASC-Sign-Type') !== 'HMAC-SHA256' ||
      !/^\d{13}$/.test(timestamp) ||
      Math.abs(Date.now() - Number(timestamp)) > 5 * 60_000 ||
      !/^[0-9a-f]{32}$/.test(nonce) ||
      nonces.has(nonce) ||
      !same(h('X-FASC-Sign') ?? '', sign(FDD.appSecret, timestamp, params)) ||
      (isTokenCall ? h('X-FASC-Grant-Type') !== 'client_credential' : !tokens.has(h('X-FASC-AccessToken') ?? ''));
    if (bad) {
      refused.push(url.pathname);
      return json(res, 200, { code: '100003', msg: '签名验证失败或令牌无效' });
    }
    nonces.add(nonce);
    const input = bizContent ? (JSON.parse(bizContent) as Record<string, any>) : {};
    const ok = (data: unknown) => json(res, 200, { code: '100000', msg: '请求成功', data });
    switch (url.pathname) {
      case '/service/get-access-token': {
        const token = randomBytes(16).toString('hex');
        tokens.add(token);
        state.tokensIssued++;
        return ok({ accessToken: token, expiresIn: '7200' });
      }
      case '/file/get-upload-url': {
        const id = randomBytes(6).toString('hex');
        uploads.set(id, null);
        return ok({ uploadUrl: `${base}/upload/${id}`, fddFileUrl: `fdd-file-${id}` });
      }
      case '/sign-task/create': {
        const document = uploads.get(String(input.docs?.[0]?.docFileId ?? '').replace(/^fdd-file-/, ''));
        if (!document) return json(res, 200, { code: '210001', msg: '文档未上传' });
        const signers = (input.actors as any[]).map((a) => ({ order: Number(a.orderNo), name: String(a.actor.actorName), mobile: String(a.actor.accountName), forOrganization: a.actor.actorType === 'corp' }));
        const flow = flows.create({ title: String(input.signTaskSubject), document, notifyUrl: String(input.callbackUrl), signers });
        return ok({ signTaskId: flow.id });
      }
    }
    const flow = flows.flows.get(String(input.signTaskId ?? ''));
    if (!flow) return json(res, 200, { code: '210002', msg: '签署任务不存在' });
    switch (url.pathname) {
      case '/sign-task/actor/get-url': {
        const signer = flow.signers.find((s) => `signer-${s.order}` === input.actorId);
        if (!signer) return json(res, 200, { code: '210003', msg: '参与方不存在' });
        return ok({ actorSignTaskUrl: `${base}/sign/${flow.id}/${signer.order}?token=${signer.token}` });
      }
      case '/sign-task/cancel':
        if (!(await flows.revoke(flow.id))) return json(res, 200, { code: '210004', msg: '任务已结束' });
        return ok(null);
      case '/sign-task/owner/get-download-url':
        if (!flow.signed) return json(res, 200, { code: '210005', msg: '任务未完成' });
        return ok({ downloadUrl: `${base}/download/${flow.id}?token=${flow.signers[0]!.token}` });
    }
    return json(res, 404, { code: '404', msg: 'not found' });
  }

  const server = await serveFake(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (await flows.page(req, res, url)) return;
    const body = await bodyOf(req);
    const upload = /^\/upload\/(\w+)$/.exec(url.pathname);
    if (upload && req.method === 'PUT') {
      if (!uploads.has(upload[1]!) || !body.subarray(0, 5).equals(Buffer.from('%PDF-'))) return json(res, 400, { code: '400' });
      uploads.set(upload[1]!, body);
      return json(res, 200, { code: '100000' });
    }
    const download = /^\/download\/(\w+)$/.exec(url.pathname);
    if (download) {
      const flow = flows.flows.get(download[1]!);
      if (!flow?.signed || url.searchParams.get('token') !== flow.signers[0]!.token) return json(res, 403, { code: '403' });
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(flow.signed.length) });
      return res.end(flow.signed);
    }
    if (req.method === 'POST') return api(req, res, url, body);
    return json(res, 404, { code: '404' });
  });
  base = server.url;
  return {
    url: server.url,
    flows,
    refused,
    calls,
    get tokensIssued() {
      return state.tokensIssued;
    },
    callbacks,
    send,
    close: server.close,
  };
}

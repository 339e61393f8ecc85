import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import { CALLBACK_WINDOW_MS, downloadFrom, exchange, headerOf, joinUrl, jsonOf, type CallbackEvent, type ESignProvider, type ProviderSettings } from './esign-provider.ts';

// e签宝 open API v3 (docs/decisions/0123, e-signature). Requests carry X-Tsign-Open-App-Id, -Auth-Mode: Signature,
// -Ca-Timestamp (ms) and -Ca-Signature = Base64(HmacSHA256(appSecret, stringToSign)) where stringToSign is
// `METHOD \n Accept \n Content-MD5 \n Content-Type \n Date \n PathAndParameters` and Content-MD5 is Base64(MD5(body))
// (empty without a body). Callbacks carry X-Tsign-Open-SIGNATURE = hex(HmacSHA256(appSecret, timestamp + body)) with
// the timestamp in X-Tsign-Open-TIMESTAMP. Answers are { code: 0, message, data }.

const ACCEPT = '*/*';
const JSON_TYPE = 'application/json; charset=UTF-8';

export const contentMd5 = (body: Buffer | string) => (body.length ? createHash('md5').update(body).digest('base64') : '');

export function tsignSignature(secret: string, method: string, md5: string, contentType: string, pathAndQuery: string): string {
  const toSign = [method.toUpperCase(), ACCEPT, md5, contentType, '', pathAndQuery].join('\n');
  return createHmac('sha256', secret).update(toSign, 'utf8').digest('base64');
}

export function tsignCallbackSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(timestamp + body, 'utf8').digest('hex');
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function tsignProvider(settings: ProviderSettings, now: () => number = Date.now): ESignProvider {
  async function send(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const url = new URL(joinUrl(settings.baseUrl, path));
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const md5 = contentMd5(body);
    const headers: Record<string, string> = {
      'X-Tsign-Open-App-Id': settings.appId,
      'X-Tsign-Open-Auth-Mode': 'Signature',
      'X-Tsign-Open-Ca-Timestamp': String(now()),
      Accept: ACCEPT,
      'Content-Type': JSON_TYPE,
      'Content-MD5': md5,
      'X-Tsign-Open-Ca-Signature': tsignSignature(settings.appSecret, method, md5, JSON_TYPE, `${url.pathname}${url.search}`),
    };
    const answer = await exchange(settings, url.toString(), { method, headers, ...(body ? { body } : {}) });
    return { status: answer.status, json: jsonOf(answer) };
  }

  async function call(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<Record<string, unknown>> {
    const { status, json } = await send(method, path, payload);
    if (status !== 200 || json.code !== 0) throw new AppError('ESignProviderFailed', { detail: { message: String(json.message ?? `HTTP ${status}`) } });
    return (json.data ?? {}) as Record<string, unknown>;
  }

  return {
    async checkCredentials() {
      // A flow that does not exist: a business answer means the signature was accepted; 401 means it was not.
      const { status, json } = await send('GET', '/v3/sign-flow/credential-check/detail');
      if (status === 401 || status === 403) throw new AppError('ESignProviderFailed', { detail: { message: String(json.message ?? `HTTP ${status}`) } });
    },
    async uploadDocument({ name, pdf }) {
      const md5 = contentMd5(pdf);
      const data = await call('POST', '/v3/files/file-upload-url', { contentMd5: md5, contentType: 'application/pdf', fileName: name, fileSize: pdf.length });
      const uploadUrl = String(data.fileUploadUrl ?? '');
      if (!uploadUrl || !data.fileId) throw new AppError('ESignProviderFailed', { detail: { message: 'no upload address' } });
      // The upload address is signed by the provider itself; the bytes travel with their MD5.
      const put = await exchange(settings, uploadUrl, { method: 'PUT', headers: { 'Content-MD5': md5, 'Content-Type': 'application/pdf' }, body: new Uint8Array(pdf) });
      if (put.status !== 200) throw new AppError('ESignProviderFailed', { detail: { message: `upload HTTP ${put.status}` } });
      return String(data.fileId);
    },
    async createFlow({ title, fileId, fileName, signers, notifyUrl }) {
      const data = await call('POST', '/v3/sign-flow/create-by-file', {
        docs: [{ fileId, fileName }],
        signFlowConfig: { signFlowTitle: title, autoStart: true, autoFinish: true, notifyUrl },
        signers: signers.map((s) => ({
          signerType: s.forOrganization ? 1 : 0,
          psnSignerInfo: { psnAccount: s.mobile, psnInfo: { psnName: s.name } },
          signConfig: { signOrder: s.order, forcedReadingTime: 0 },
          ...(s.forOrganization ? { orgSignerInfo: { sealApproval: true } } : {}),
        })),
      });
      if (!data.signFlowId) throw new AppError('ESignProviderFailed', { detail: { message: 'no signFlowId' } });
      return String(data.signFlowId);
    },
    async signUrl(flowId, signer) {
      const data = await call('POST', `/v3/sign-flow/${encodeURIComponent(flowId)}/sign-url`, { operator: { psnAccount: signer.mobile } });
      return String(data.url ?? '');
    },
    async revoke(flowId, reason) {
      await call('POST', `/v3/sign-flow/${encodeURIComponent(flowId)}/revoke`, { revokeReason: reason });
    },
    async downloadSigned(flowId) {
      const data = await call('GET', `/v3/sign-flow/${encodeURIComponent(flowId)}/file-download-url`);
      const file = (data.files as { downloadUrl?: string }[] | undefined)?.[0];
      if (!file?.downloadUrl) throw new AppError('ESignProviderFailed', { detail: { message: 'no signed file' } });
      return downloadFrom(settings, file.downloadUrl);
    },
    openCallback({ headers, body }) {
      const signature = headerOf(headers, 'X-Tsign-Open-SIGNATURE');
      const timestamp = headerOf(headers, 'X-Tsign-Open-TIMESTAMP');
      if (!signature || !timestamp || !/^\d{10,16}$/.test(timestamp)) return null;
      if (!same(signature, tsignCallbackSignature(settings.appSecret, timestamp, body))) return null;
      if (Math.abs(now() - Number(timestamp)) > CALLBACK_WINDOW_MS) return null;
      let push: Record<string, unknown>;
      try {
        push = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return null;
      }
      const flowId = String(push.signFlowId ?? '');
      if (!flowId) return null;
      const order = typeof push.signOrder === 'number' ? push.signOrder : null;
      const base = { providerFlowId: flowId, order, reason: typeof push.resultDescription === 'string' ? push.resultDescription : null };
      if (push.action === 'SIGN_MISSON_COMPLETE') {
        // signResult: 2 signed, 4 refused; 5 signed for the organisation and waiting for its seal approval.
        const kind: CallbackEvent['kind'] = push.signResult === 2 ? 'signed' : push.signResult === 4 ? 'refused' : push.signResult === 5 ? 'awaitingApproval' : 'other';
        return { ...base, kind };
      }
      if (push.action === 'SIGN_FLOW_COMPLETE') {
        // signFlowStatus: 2 finished, 3 revoked, 7 refused (the refusal itself arrived as the signer's task).
        const kind: CallbackEvent['kind'] = push.signFlowStatus === 2 ? 'finished' : push.signFlowStatus === 3 ? 'revoked' : 'other';
        return { ...base, kind, order: null };
      }
      return { ...base, kind: 'other' };
    },
  };
}

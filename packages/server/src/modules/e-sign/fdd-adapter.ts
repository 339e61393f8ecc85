import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import { CALLBACK_WINDOW_MS, downloadFrom, exchange, headerOf, joinUrl, jsonOf, type CallbackEvent, type ESignProvider, type ProviderSettings } from './esign-provider.ts';

// 法大大 FASC open API v5 (docs/decisions/0123, e-signature). Every request is a form post of `bizContent` (JSON) with
// X-FASC-App-Id, -Sign-Type: HMAC-SHA256, -Timestamp (ms), -Nonce (32 characters), -Api-SubVersion and, once the
// app has one, -AccessToken (from /service/get-access-token with -Grant-Type: client_credential). The signature
// X-FASC-Sign is hex(HmacSHA256(key = HmacSHA256(appSecret, timestamp), SHA-256 hex of the sign text)) where the sign
// text is every parameter (those headers and bizContent, empty ones left out) sorted by name as `k=v&k=v`. Callbacks
// carry the same headers plus X-FASC-Event and are signed the same way. Answers are { code: '100000', msg, data }.

const SUB_VERSION = '5.1';
const OK = '100000';

export function fddSignText(params: Record<string, string | undefined>): string {
  return Object.keys(params)
    .filter((k) => params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

export function fddSignature(secret: string, timestamp: string, params: Record<string, string | undefined>): string {
  const derived = createHmac('sha256', secret).update(timestamp, 'utf8').digest();
  const hashed = createHash('sha256').update(fddSignText(params), 'utf8').digest('hex');
  return createHmac('sha256', derived).update(hashed, 'utf8').digest('hex');
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Access tokens per app, kept until a minute before they expire (one process asks once per app and period). */
const tokens = new Map<string, { token: string; until: number }>();

export function fddProvider(settings: ProviderSettings, now: () => number = Date.now): ESignProvider {
  const tokenKey = `${settings.baseUrl}|${settings.appId}|${createHash('sha256').update(settings.appSecret).digest('hex')}`;

  async function post(path: string, biz: unknown, extra: Record<string, string>): Promise<Record<string, unknown>> {
    const timestamp = String(now());
    const bizContent = biz === undefined ? undefined : JSON.stringify(biz);
    const params: Record<string, string | undefined> = {
      'X-FASC-App-Id': settings.appId,
      'X-FASC-Sign-Type': 'HMAC-SHA256',
      'X-FASC-Timestamp': timestamp,
      'X-FASC-Nonce': randomBytes(16).toString('hex'),
      'X-FASC-Api-SubVersion': SUB_VERSION,
      ...extra,
      bizContent,
    };
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8', 'X-FASC-Sign': fddSignature(settings.appSecret, timestamp, params) };
    for (const [k, v] of Object.entries(params)) if (k !== 'bizContent' && v) headers[k] = v;
    const body = bizContent === undefined ? '' : new URLSearchParams({ bizContent }).toString();
    const answer = await exchange(settings, joinUrl(settings.baseUrl, path), { method: 'POST', headers, body });
    const json = jsonOf(answer);
    if (answer.status !== 200 || json.code !== OK) throw new AppError('ESignProviderFailed', { detail: { message: String(json.msg ?? `HTTP ${answer.status}`) } });
    return (json.data ?? {}) as Record<string, unknown>;
  }

  async function accessToken(): Promise<string> {
    const cached = tokens.get(tokenKey);
    if (cached && cached.until > now()) return cached.token;
    const data = await post('/service/get-access-token', undefined, { 'X-FASC-Grant-Type': 'client_credential' });
    const token = String(data.accessToken ?? '');
    if (!token) throw new AppError('ESignProviderFailed', { detail: { message: 'no accessToken' } });
    tokens.set(tokenKey, { token, until: now() + Math.max(0, Number(data.expiresIn ?? 7200) - 60) * 1000 });
    return token;
  }

  const call = async (path: string, biz: unknown) => post(path, biz, { 'X-FASC-AccessToken': await accessToken() });

  return {
    async checkCredentials() {
      tokens.delete(tokenKey);
      await accessToken();
    },
    async uploadDocument({ name, pdf }) {
      const data = await call('/file/get-upload-url', { fileType: 'doc', fileName: name });
      const uploadUrl = String(data.uploadUrl ?? '');
      if (!uploadUrl || !data.fddFileUrl) throw new AppError('ESignProviderFailed', { detail: { message: 'no upload address' } });
      const put = await exchange(settings, uploadUrl, { method: 'PUT', headers: { 'Content-Type': 'application/pdf' }, body: new Uint8Array(pdf) });
      if (put.status !== 200) throw new AppError('ESignProviderFailed', { detail: { message: `upload HTTP ${put.status}` } });
      return String(data.fddFileUrl);
    },
    async createFlow({ title, fileId, fileName, signers, notifyUrl }) {
      const data = await call('/sign-task/create', {
        signTaskSubject: title,
        docs: [{ docId: '1', docName: fileName, docFileId: fileId }],
        signInOrder: true,
        autoStart: true,
        autoFinish: true,
        // The real service sends events to the app's configured address; here each task names it.
        callbackUrl: notifyUrl,
        actors: signers.map((s) => ({
          actor: { actorId: `signer-${s.order}`, actorType: s.forOrganization ? 'corp' : 'person', actorName: s.name, accountName: s.mobile, permissions: ['sign'] },
          orderNo: s.order,
          ...(s.forOrganization ? { sealApproval: true } : {}),
        })),
      });
      if (!data.signTaskId) throw new AppError('ESignProviderFailed', { detail: { message: 'no signTaskId' } });
      return String(data.signTaskId);
    },
    async signUrl(taskId, signer) {
      const data = await call('/sign-task/actor/get-url', { signTaskId: taskId, actorId: `signer-${signer.order}` });
      return String(data.actorSignTaskUrl ?? '');
    },
    async revoke(taskId, reason) {
      await call('/sign-task/cancel', { signTaskId: taskId, terminationNote: reason });
    },
    async downloadSigned(taskId) {
      const data = await call('/sign-task/owner/get-download-url', { signTaskId: taskId });
      if (!data.downloadUrl) throw new AppError('ESignProviderFailed', { detail: { message: 'no signed file' } });
      return downloadFrom(settings, String(data.downloadUrl));
    },
    openCallback({ headers, body }) {
      const h = (name: string) => headerOf(headers, name);
      const signature = h('X-FASC-Sign');
      const timestamp = h('X-FASC-Timestamp');
      const event = h('X-FASC-Event');
      if (!signature || !timestamp || !event || !/^\d{10,16}$/.test(timestamp)) return null;
      const bizContent = new URLSearchParams(body).get('bizContent') ?? '';
      const params = {
        'X-FASC-App-Id': h('X-FASC-App-Id'),
        'X-FASC-Sign-Type': h('X-FASC-Sign-Type'),
        'X-FASC-Timestamp': timestamp,
        'X-FASC-Nonce': h('X-FASC-Nonce'),
        'X-FASC-Event': event,
        bizContent,
      };
      if (params['X-FASC-App-Id'] !== settings.appId) return null;
      if (!same(signature, fddSignature(settings.appSecret, timestamp, params))) return null;
      if (Math.abs(now() - Number(timestamp)) > CALLBACK_WINDOW_MS) return null;
      let biz: Record<string, unknown>;
      try {
        biz = JSON.parse(bizContent) as Record<string, unknown>;
      } catch {
        return null;
      }
      const taskId = String(biz.signTaskId ?? '');
      if (!taskId) return null;
      const actor = /^signer-(\d+)$/.exec(String(biz.actorId ?? ''));
      const kinds: Record<string, CallbackEvent['kind']> = {
        'sign-task-signed': 'signed',
        'sign-task-seal-pending': 'awaitingApproval',
        'sign-task-sign-rejected': 'refused',
        'sign-task-finished': 'finished',
        'sign-task-canceled': 'revoked',
      };
      return {
        providerFlowId: taskId,
        kind: kinds[event] ?? 'other',
        order: actor ? Number(actor[1]) : null,
        reason: typeof biz.rejectReason === 'string' ? biz.rejectReason : null,
      };
    },
  };
}

import type { KeyObject } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import { OutboundRefused } from '../../lib/outbound-http.ts';
import type { InstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { chinaTime, memberText, privateKeyOf, publicKeyOf, signRsa2, signingText, verifyRsa2 } from './alipay-signing.ts';

// The gateway client of the payment plugin, modelled on Alipay's open API (docs/decisions/0123, payment): one POST
// to the gateway per call with the common parameters and `biz_content`, signed RSA2 with the app's private key; the
// answer's `<method>_response` verified with the platform's public key before anything is believed. Every request
// goes through the platform's guarded fetch (no loopback or private address unless the deployment allows it).

export type AlipayMethod = 'alipay.trade.precreate' | 'alipay.trade.query' | 'alipay.trade.close' | 'alipay.trade.refund';

export interface AlipayConfig {
  gatewayUrl: string;
  appId: string;
  privateKey: KeyObject;
  platformPublicKey: KeyObject;
}

export interface AlipayDeps {
  http: typeof fetch;
  timeoutMs?: number;
  now?: () => Date;
}

export const GATEWAY_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 256 * 1024;

/** The plugin's settings as a client's configuration; a missing or unreadable key is the settings' fault (440013). */
export function alipayConfigOf(plugin: InstalledPlugin): AlipayConfig {
  const text = (key: string) => (typeof plugin.settings[key] === 'string' ? (plugin.settings[key] as string).trim() : '');
  const gatewayUrl = text('gatewayUrl');
  const appId = text('appId');
  if (!/^https?:\/\//i.test(gatewayUrl)) throw new AppError('PaymentSettingsInvalid', { detail: { setting: 'gatewayUrl' } });
  if (!appId) throw new AppError('PaymentSettingsInvalid', { detail: { setting: 'appId' } });
  const privateKey = privateKeyOf(plugin.secrets.privateKey ?? '');
  const platformPublicKey = publicKeyOf(text('platformPublicKey'));
  return { gatewayUrl, appId, privateKey, platformPublicKey };
}

/** The common parameters and biz_content of one call, signed (what goes in the form body). */
export function signedRequest(config: AlipayConfig, method: AlipayMethod, biz: Record<string, unknown>, options: { notifyUrl?: string; now: Date }): Record<string, string> {
  const params: Record<string, string> = {
    app_id: config.appId,
    method,
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: chinaTime(options.now),
    version: '1.0',
    ...(options.notifyUrl ? { notify_url: options.notifyUrl } : {}),
    biz_content: JSON.stringify(biz),
  };
  return { ...params, sign: signRsa2(signingText(params), config.privateKey) };
}

/** A refusal the provider answered (code other than 10000) with its sub_code and sub_msg. */
export class AlipayRefusal extends AppError {
  constructor(
    readonly subCode: string,
    subMsg: string,
  ) {
    super('PaymentGatewayRefused', { detail: { subCode, subMsg } });
  }
}

async function boundedText(response: Response): Promise<string> {
  if (Number(response.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES || !response.body) {
    await response.body?.cancel();
    if (!response.body) return '';
    throw new AppError('PaymentGatewayUnreachable', { detail: { message: 'answer too large' } });
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await response.body.cancel().catch(() => undefined);
      throw new AppError('PaymentGatewayUnreachable', { detail: { message: 'answer too large' } });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function failureOf(error: unknown, url: string, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof OutboundRefused) return new AppError('PaymentAddressRefused', { detail: { host: new URL(url).host } });
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return new AppError('PaymentGatewayTimeout', { detail: { seconds: Math.round(timeoutMs / 1000) } });
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new AppError('PaymentGatewayUnreachable', { detail: { message: cause?.code ?? cause?.message ?? (error as Error).message ?? String(error) } });
}

/**
 * Calls one gateway method and answers its verified `<method>_response` (code 10000). A refusal is an AlipayRefusal
 * (its sub_code kept for the callers that treat some as a state, such as ACQ.TRADE_NOT_EXIST); an answer whose
 * signature does not verify is refused whatever it says.
 */
export async function callAlipay(config: AlipayConfig, method: AlipayMethod, biz: Record<string, unknown>, deps: AlipayDeps, notifyUrl?: string): Promise<Record<string, unknown>> {
  const timeoutMs = deps.timeoutMs ?? GATEWAY_TIMEOUT_MS;
  const form = signedRequest(config, method, biz, { notifyUrl, now: deps.now?.() ?? new Date() });
  let text: string;
  let status: number;
  try {
    const response = await deps.http(config.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'follow',
    });
    status = response.status;
    text = await boundedText(response);
  } catch (error) {
    throw failureOf(error, config.gatewayUrl, timeoutMs);
  }
  if (status < 200 || status > 299) throw new AppError('PaymentGatewayUnreachable', { detail: { message: `HTTP ${status}` } });
  const member = `${method.replace(/\./g, '_')}_response`;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new AppError('PaymentGatewaySignatureInvalid');
  }
  const body = (parsed[member] ?? parsed.error_response) as Record<string, unknown> | undefined;
  const signed = memberText(text, parsed[member] ? member : 'error_response');
  if (!body || typeof body !== 'object' || signed === null) throw new AppError('PaymentGatewaySignatureInvalid');
  const signature = typeof parsed.sign === 'string' ? parsed.sign : '';
  const verified = verifyRsa2(signed, signature, config.platformPublicKey);
  // A refusal may come unsigned (the gateway does not sign answers to requests whose own signature failed); it is
  // believed only as a refusal. A success is believed only when signed.
  if (String(body.code) !== '10000') {
    if (signature && !verified) throw new AppError('PaymentGatewaySignatureInvalid');
    throw new AlipayRefusal(String(body.sub_code ?? body.code ?? ''), String(body.sub_msg ?? body.msg ?? ''));
  }
  if (!verified) throw new AppError('PaymentGatewaySignatureInvalid');
  return body;
}

import { AppError } from '../../lib/app-error.ts';
import { OutboundRefused, readBoundedBody } from '../../lib/outbound-http.ts';

// The e-sign providers behind the e-sign control (docs/decisions/0123, e-signature). Each adapter speaks its
// provider's documented request signing and checks its callbacks' signatures; the flows module talks to this
// interface only. Every request leaves through the platform's guarded fetch (lib/outbound-http.ts).

export type ESignTemplateCode = 'esign-tsign' | 'esign-fdd';
export const ESIGN_TEMPLATES: readonly ESignTemplateCode[] = ['esign-tsign', 'esign-fdd'];
/** The provider's short name in the callback address (/v1/esign/callback/:provider/:engineCode). */
export const CALLBACK_NAMES: Record<ESignTemplateCode, string> = { 'esign-tsign': 'tsign', 'esign-fdd': 'fdd' };

export interface ProviderSettings {
  baseUrl: string;
  appId: string;
  appSecret: string;
  /** The platform's guarded fetch. */
  http: typeof fetch;
  timeoutMs?: number;
}

export interface ProviderSigner {
  order: number;
  name: string;
  mobile: string;
  forOrganization: boolean;
}

/** What a verified callback says, in the flows module's words. */
export interface CallbackEvent {
  providerFlowId: string;
  kind: 'signed' | 'awaitingApproval' | 'refused' | 'finished' | 'revoked' | 'other';
  order: number | null;
  reason: string | null;
}

export interface CallbackPush {
  headers: Record<string, string | undefined>;
  body: string;
}

export interface ESignProvider {
  /** The install check: the provider accepts the app id and secret (a signed request it answers without an auth failure). */
  checkCredentials(): Promise<void>;
  /** Uploads the PDF; answers the provider's file id. */
  uploadDocument(file: { name: string; pdf: Buffer }): Promise<string>;
  /** Creates and starts the flow with the signers in order; answers the provider's flow id. */
  createFlow(input: { title: string; fileId: string; fileName: string; signers: readonly ProviderSigner[]; notifyUrl: string }): Promise<string>;
  /** The signer's own signing page. */
  signUrl(providerFlowId: string, signer: ProviderSigner): Promise<string>;
  revoke(providerFlowId: string, reason: string): Promise<void>;
  /** The signed PDF's bytes. */
  downloadSigned(providerFlowId: string): Promise<Buffer>;
  /** The callback's event when its signature is the provider's; null when it is not (forged, altered, stale). */
  openCallback(push: CallbackPush): CallbackEvent | null;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
/** A signed PDF is at most this large (the platform's attachment cap). */
export const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;
/** Callbacks older or newer than this are refused (a captured one cannot be replayed later). */
export const CALLBACK_WINDOW_MS = 15 * 60 * 1000;


/** One exchange with the provider under a time-out and a size bound; failures as the catalogue says them. */
export async function exchange(settings: ProviderSettings, url: string, init: RequestInit, maxBytes = 1024 * 1024): Promise<{ status: number; body: Buffer }> {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    const response = await settings.http(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    return { status: response.status, body: await readBoundedBody(response, maxBytes) };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof OutboundRefused) throw new AppError('OutsideAddressRefused', { detail: { host: new URL(url).host } });
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new AppError('OutsideCallTimeout', { detail: { seconds: Math.round(timeoutMs / 1000) } });
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new AppError('OutsideUnreachable', { detail: { message: cause?.code ?? cause?.message ?? (error as Error).message ?? String(error) } });
  }
}

/** The JSON of an answer, or the provider's failure. */
export function jsonOf(answer: { status: number; body: Buffer }): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new AppError('ESignProviderFailed', { detail: { message: `HTTP ${answer.status}` } });
  }
  if (!parsed || typeof parsed !== 'object') throw new AppError('ESignProviderFailed', { detail: { message: `HTTP ${answer.status}` } });
  return parsed as Record<string, unknown>;
}

export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

/** Header names compared without case. */
export function headerOf(headers: Record<string, string | undefined>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === lower) return value;
  return undefined;
}

/** Downloads a file the provider handed a link to (the link carries its own permission). */
export async function downloadFrom(settings: ProviderSettings, url: string): Promise<Buffer> {
  const answer = await exchange(settings, url, { method: 'GET' }, MAX_DOWNLOAD_BYTES);
  if (answer.status !== 200) throw new AppError('ESignProviderFailed', { detail: { message: `HTTP ${answer.status}` } });
  return answer.body;
}

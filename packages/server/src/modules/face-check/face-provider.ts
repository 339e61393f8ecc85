import { AppError } from '../../lib/app-error.ts';
import { OutboundRefused, readBoundedBody } from '../../lib/outbound-http.ts';
import type { InstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { tc3Authorization } from './tc3-signature.ts';

// The face plugin's provider, modelled on Tencent Cloud's face recognition (iai) API: action CompareFace, version
// 2020-03-03, JSON {ImageA, ImageB} in base64, signed TC3-HMAC-SHA256. The answer is {Response: {Score, …, RequestId}}
// or {Response: {Error: {Code, Message}, RequestId}}; its errors become catalogue errors in the caller's language.
// The call leaves through the platform's guarded fetch (loopback and private addresses refused unless allowed).

export const FACE_SERVICE = 'iai';
export const FACE_ACTION = 'CompareFace';
export const FACE_VERSION = '2020-03-03';
const CONTENT_TYPE = 'application/json; charset=utf-8';
const TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export interface FaceComparison {
  score: number;
  modelVersion: string;
  requestId: string;
}

export interface FaceProviderDeps {
  http: typeof fetch;
  /** Unix seconds; tests move it to make a signature too old. */
  nowSeconds?: () => number;
  timeoutMs?: number;
}

/** The provider's error codes the caller can act on, as the catalogue says them. */
function providerError(code: string, message: string): AppError {
  if (code.startsWith('AuthFailure')) return new AppError('FaceProviderAuthFailed', { detail: { code } });
  if (code === 'InvalidParameterValue.NoFaceInPhoto' || code === 'FailedOperation.ImageFacedetectFailed') return new AppError('FaceNotFound');
  if (code.endsWith('ImageSizeExceed')) return new AppError('FaceImageTooLarge', { detail: { limitMb: 3 } });
  if (code === 'FailedOperation.ImageDecodeFailed') return new AppError('FaceImageInvalid');
  return new AppError('FaceProviderFailed', { detail: { code, message: message.slice(0, 200) } });
}

function networkError(error: unknown, url: URL, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof OutboundRefused) return new AppError('OutsideAddressRefused', { detail: { host: url.host } });
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return new AppError('OutsideCallTimeout', { detail: { seconds: Math.round(timeoutMs / 1000) } });
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new AppError('OutsideUnreachable', { detail: { message: cause?.code ?? cause?.message ?? (error as Error).message ?? String(error) } });
}


/** Compares two photos; throws a catalogue error when the provider cannot. */
export async function compareFaces(plugin: InstalledPlugin, imageA: Buffer, imageB: Buffer, deps: FaceProviderDeps): Promise<FaceComparison> {
  const endpoint = String(plugin.settings.endpoint ?? '');
  const region = String(plugin.settings.region ?? '');
  const secretId = String(plugin.settings.secretId ?? '');
  const secretKey = plugin.secrets.secretKey ?? '';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AppError('PluginSettingNotUrl', { detail: { label: '接口地址', key: 'endpoint' } });
  }
  const body = JSON.stringify({ ImageA: imageA.toString('base64'), ImageB: imageB.toString('base64') });
  const timestamp = (deps.nowSeconds ?? (() => Math.floor(Date.now() / 1000)))();
  const authorization = tc3Authorization({ secretId, secretKey, service: FACE_SERVICE, host: url.host, contentType: CONTENT_TYPE, body, timestamp });
  const timeoutMs = deps.timeoutMs ?? TIMEOUT_MS;
  let status: number;
  let text: string;
  try {
    const response = await deps.http(url, {
      method: 'POST',
      headers: {
        authorization,
        'content-type': CONTENT_TYPE,
        'x-tc-action': FACE_ACTION,
        'x-tc-version': FACE_VERSION,
        'x-tc-timestamp': String(timestamp),
        'x-tc-region': region,
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    status = response.status;
    text = (await readBoundedBody(response, MAX_ANSWER_BYTES)).toString('utf8');
  } catch (error) {
    throw networkError(error, url, timeoutMs);
  }
  let answer: { Response?: { Score?: unknown; FaceModelVersion?: unknown; RequestId?: unknown; Error?: { Code?: unknown; Message?: unknown } } };
  try {
    answer = JSON.parse(text);
  } catch {
    throw status >= 200 && status < 300 ? new AppError('FaceProviderAnswerInvalid') : new AppError('OutsideCallFailed', { detail: { status } });
  }
  const response = answer?.Response;
  if (response?.Error) throw providerError(String(response.Error.Code ?? ''), String(response.Error.Message ?? ''));
  if (status < 200 || status > 299) throw new AppError('OutsideCallFailed', { detail: { status } });
  if (typeof response?.Score !== 'number' || !Number.isFinite(response.Score)) throw new AppError('FaceProviderAnswerInvalid');
  return { score: response.Score, modelVersion: String(response.FaceModelVersion ?? ''), requestId: String(response.RequestId ?? '') };
}

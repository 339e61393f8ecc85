import { OutboundRefused } from '../../../lib/outbound-http.ts';
import { ChannelError } from './channel.ts';

const TIMEOUT_MS = 10_000;

export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * POSTs JSON through `http` (the platform's outbound fetch: lib/outbound-http.ts) and answers the status and body. No
 * answer at all (refused connection, DNS, timeout) is a retryable ChannelError; a non-2xx answer is one too: retryable
 * for 5xx and 429 (the provider may recover), not for other 4xx (the request itself is wrong and would fail again). An
 * address the platform may not reach fails for good.
 */
export async function postJson(http: typeof fetch, url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await http(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (error) {
    if (error instanceof OutboundRefused) throw new ChannelError(`${new URL(url).host}: ${error.message}`, false);
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : describeCause(error);
    throw new ChannelError(`no answer from ${new URL(url).host}: ${reason}`, true);
  }
  const text = await response.text().catch(() => '');
  if (response.status < 200 || response.status > 299) {
    const retryable = response.status >= 500 || response.status === 429;
    throw new ChannelError(`HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`, retryable);
  }
  return { status: response.status, text };
}

/** The JSON object of an answer, or undefined when it is not one. */
export function jsonOf(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function describeCause(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

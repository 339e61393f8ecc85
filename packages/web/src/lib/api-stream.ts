import { isAbortError } from './api-error.ts';
import { failedAnswer } from './api-client.ts';
import { addBreadcrumb } from './breadcrumbs.ts';
import { currentLocale } from './i18n.ts';
import { getEngineCode, getToken } from './session.ts';

// Server-sent-event answers of POST calls (the AI's streamed chat), apart from api-client.ts so that the sign-in
// page's bundle does not carry them.

/**
 * Opens a server-sent-event answer of a POST: the same headers as every call; a refusal the server answers before
 * the stream opens (an envelope) is thrown as ApiError and shown like any other call's. Answers the stream's reader.
 */
export async function apiStream(url: string, body: unknown, signal?: AbortSignal): Promise<ReadableStreamDefaultReader<string>> {
  addBreadcrumb(`POST ${url}`);
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'Accept-Language': currentLocale(), 'Content-Type': 'application/json' };
  const token = getToken();
  const engineCode = getEngineCode();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (engineCode) headers.EngineCode = engineCode;
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, credentials: 'include', body: JSON.stringify(body), signal });
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) throw error;
    throw failedAnswer(0, '', url);
  }
  if (response.ok && (response.headers.get('content-type') ?? '').includes('text/event-stream') && response.body) {
    return response.body.pipeThrough(new TextDecoderStream()).getReader();
  }
  throw failedAnswer(response.ok ? 200 : response.status, await response.text(), url);
}

/** Reads a server-sent-event stream's events (`event:` and one `data:` line of JSON each). */
export async function* serverEvents(reader: ReadableStreamDefaultReader<string>): AsyncGenerator<{ event: string; data: unknown }> {
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (data) yield { event, data: JSON.parse(data) as unknown };
      end = buffer.indexOf('\n\n');
    }
  }
}

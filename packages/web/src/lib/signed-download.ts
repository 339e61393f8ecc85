import { getEngineCode, getToken } from './session.ts';

/** The session's headers, for a call made with fetch rather than the API client (one that answers a file's bytes). */
export function sessionHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = getToken();
  const engineCode = getEngineCode();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (engineCode) headers.EngineCode = engineCode;
  return headers;
}

/** Starts the browser's download of an address under a file name. */
export function startDownload(url: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * Fetches a signed-in call that answers bytes and saves them as `fileName`. An answer that is not ok, or not of the
 * expected content type, is refused with the server's message when it sent one.
 */
export async function downloadSigned(path: string, init: RequestInit, fileName: string, expectedType?: string): Promise<void> {
  const res = await fetch(path, { ...init, headers: { ...sessionHeaders(), ...(init.headers as Record<string, string> | undefined) }, credentials: 'include' });
  if (!res.ok || (expectedType && !res.headers.get('content-type')?.includes(expectedType))) {
    const answer = (await res.json().catch(() => ({}))) as { errorMessage?: string };
    throw new Error(answer.errorMessage ?? `download ${res.status}`);
  }
  const url = URL.createObjectURL(await res.blob());
  startDownload(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

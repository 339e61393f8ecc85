import { getEngineCode, getToken } from './session.ts';

// The live stream (issue 20): server-sent events from GET /v1/toolkit/live, read with fetch so the session travels in
// the same headers as every call. When the stream drops it is opened again after a growing pause, with the last
// message's id as Last-Event-ID, and the server first sends what was missed.

export interface LiveEvent {
  event: string;
  id?: string;
  data: Record<string, unknown>;
}

/** Splits a text/event-stream buffer into events; answers them and what is left over. */
export function parseEventStream(buffer: string): { events: LiveEvent[]; rest: string } {
  const events: LiveEvent[] = [];
  let rest = buffer.replace(/\r\n/g, '\n');
  let cut;
  while ((cut = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    const fields: Record<string, string> = {};
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      fields[name] = name in fields && name === 'data' ? `${fields[name]}\n${value}` : value;
    }
    if (!fields.event) continue;
    let data: Record<string, unknown> = {};
    try {
      data = JSON.parse(fields.data ?? '{}') as Record<string, unknown>;
    } catch {
      continue;
    }
    events.push({ event: fields.event, id: fields.id, data });
  }
  return { events, rest };
}

/** Opens the live stream and keeps it open until the answer's stop() is called. */
export function openLiveStream(onEvent: (event: LiveEvent) => void, options: { url?: string; onOpen?: () => void } = {}): { stop(): void } {
  const url = options.url ?? '/v1/toolkit/live';
  let stopped = false;
  let controller: AbortController | undefined;
  let lastId: string | undefined;
  let pause = 1_000;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function connect() {
    const token = getToken();
    if (stopped || !token) return;
    controller = new AbortController();
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
      const engine = getEngineCode();
      if (engine) headers.enginecode = engine;
      if (lastId) headers['last-event-id'] = lastId;
      const res = await fetch(url, { headers, signal: controller.signal });
      if (!res.ok || !res.body || !res.headers.get('content-type')?.includes('text/event-stream')) throw new Error(`live stream refused: ${res.status}`);
      pause = 1_000;
      options.onOpen?.();
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const parsed = parseEventStream(buffer + decoder.decode(value, { stream: true }));
        buffer = parsed.rest;
        for (const e of parsed.events) {
          if (e.id) lastId = e.id;
          onEvent(e);
        }
      }
    } catch {
      // Dropped or refused: try again below.
    }
    if (stopped) return;
    timer = setTimeout(() => void connect(), pause);
    pause = Math.min(pause * 2, 30_000);
  }

  void connect();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller?.abort();
    },
  };
}

import type { ServerResponse } from 'node:http';
import { LIVE_CHANNEL, parseLiveEvent, type LiveEvent } from '../../lib/live-events.ts';
import type { Listen } from '../../db/database.ts';

// The browsers connected to this server process by server-sent events (issue 20; docs/decisions/0038): each open
// stream is filed under its engine and user; an event heard on the LIVE channel goes to the streams of its users.

/** At most this many open streams per person (tabs, devices) and per process. */
export const MAX_STREAMS_PER_USER = 10;
export const MAX_STREAMS = 20_000;
const HEARTBEAT_MS = 25_000;

export interface LiveStream {
  readonly engineCode: string;
  readonly userId: string;
  /** Writes one event in the text/event-stream format. */
  send(kind: string, data: unknown, id?: number): void;
  close(): void;
}

export interface ReplayedEvent {
  kind: string;
  data: unknown;
  id: number;
}

export interface LiveHub {
  /**
   * Files a response as a stream (headers already written by the caller); null when over a limit. `replay` reads
   * what the browser missed (after its Last-Event-ID): events arriving meanwhile wait, and a message the replay
   * already carried is not sent twice.
   */
  open(engineCode: string, userId: string, raw: ServerResponse, replay?: () => Promise<ReplayedEvent[]>): Promise<LiveStream | null>;
  /** Hands one event to this process's streams of its users (what the LISTEN hears). */
  dispatch(event: LiveEvent): number;
  /** Whether another stream of this person fits the limits. */
  canOpen(engineCode: string, userId: string): boolean;
  /** How many streams are open in this process. */
  size(): number;
  /** Waits (at most `ms`) until this process hears the LIVE channel: answers whether it does. */
  hearing(ms: number): Promise<boolean>;
  /** Where `hearing` learns it: the LISTEN's readiness (none: the process hears from the start). */
  hearFrom(ready: () => Promise<void>): void;
  /** Ends every open stream; each browser opens its stream again and is sent what it missed (see `listenInto`). */
  endAll(): void;
  close(): Promise<void>;
}

const keyOf = (engineCode: string, userId: string) => `${engineCode}\u0000${userId}`;

export function createLiveHub(): LiveHub {
  const streams = new Map<string, Set<LiveStream>>();
  let count = 0;
  let ready: () => Promise<void> = () => Promise.resolve();
  const heartbeat = setInterval(() => {
    for (const set of streams.values()) for (const s of set) s.send('ping', {});
  }, HEARTBEAT_MS);
  heartbeat.unref();

  function remove(stream: LiveStream) {
    const set = streams.get(keyOf(stream.engineCode, stream.userId));
    if (set?.delete(stream)) {
      count--;
      if (!set.size) streams.delete(keyOf(stream.engineCode, stream.userId));
    }
  }

  return {
    async open(engineCode, userId, raw, replay) {
      const key = keyOf(engineCode, userId);
      const set = streams.get(key) ?? new Set<LiveStream>();
      if (set.size >= MAX_STREAMS_PER_USER || count >= MAX_STREAMS) return null;
      let closed = false;
      let held: [string, unknown, number | undefined][] | undefined = replay ? [] : undefined;
      const write = (kind: string, data: unknown, id: number | undefined) =>
        raw.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${kind}\ndata: ${JSON.stringify(data)}\n\n`);
      const stream: LiveStream = {
        engineCode,
        userId,
        send(kind, data, id) {
          if (closed) return;
          if (held) held.push([kind, data, id]);
          else write(kind, data, id);
        },
        close() {
          if (closed) return;
          closed = true;
          remove(stream);
          raw.end();
        },
      };
      set.add(stream);
      streams.set(key, set);
      count++;
      raw.on('close', () => stream.close());
      if (replay) {
        let last = -1;
        try {
          for (const e of await replay()) {
            if (closed) break;
            write(e.kind, e.data, e.id);
            last = Math.max(last, e.id);
          }
        } catch {
          // The replay could not be read (the database away): end the stream; the browser reconnects with the same
          // Last-Event-ID and is sent the missed messages then.
          stream.close();
        } finally {
          const waiting = held ?? [];
          held = undefined;
          for (const [kind, data, id] of waiting) if (!closed && (id === undefined || id > last)) write(kind, data, id);
        }
      }
      return stream;
    },
    dispatch(event) {
      let sent = 0;
      for (const user of event.u) {
        const set = streams.get(keyOf(event.e, user));
        if (!set) continue;
        const seq = typeof event.d?.seq === 'number' ? event.d.seq : undefined;
        for (const s of set) {
          s.send(event.k, event.d ?? {}, event.k === 'message' ? seq : undefined);
          sent++;
        }
      }
      return sent;
    },
    canOpen: (engineCode, userId) => (streams.get(keyOf(engineCode, userId))?.size ?? 0) < MAX_STREAMS_PER_USER && count < MAX_STREAMS,
    size: () => count,
    async hearing(ms) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
      try {
        return await Promise.race([ready().then(() => true, () => false), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    hearFrom(next) {
      ready = next;
    },
    endAll() {
      for (const set of [...streams.values()]) for (const s of [...set]) s.close();
    },
    async close() {
      clearInterval(heartbeat);
      this.endAll();
    },
  };
}

/**
 * Starts hearing the LIVE channel into the hub; answers how to stop. A stream is only opened once the LISTEN is in
 * place (`hearing`): one opened before would miss the events of the moments between. When the LISTEN was lost and is
 * back, what was sent meanwhile was not heard: every stream is ended, and its browser, opening it again with its
 * Last-Event-ID, is sent the missed messages and reads its counts afresh.
 */
export async function listenInto(hub: LiveHub, listen: Listen): Promise<() => Promise<void>> {
  const listening = await listen(
    LIVE_CHANNEL,
    (payload) => {
      const event = parseLiveEvent(payload);
      if (event) hub.dispatch(event);
    },
    () => hub.endAll(),
  );
  hub.hearFrom(() => listening.ready());
  return () => listening.stop();
}

import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Live events (issue 20; docs/decisions/0038): what a change tells the browsers of the people it concerns. An event is
// sent with NOTIFY on one channel inside the transaction that made the change, so it leaves only when that commits,
// and every server process that LISTENs hears it and hands it to the browsers connected to it.

export const LIVE_CHANNEL = 'tritium_live';

/** message: a new message (its seq is the stream's event id); todos: a to-do count changed; job: a job moved on. */
export type LiveKind = 'message' | 'todos' | 'job';

export interface LiveEvent {
  /** Engine code. */
  e: string;
  /** The users it is for. */
  u: string[];
  k: LiveKind;
  /** The event's data for the browser (small: NOTIFY carries at most 8000 bytes). */
  d?: Record<string, unknown>;
}

/** NOTIFY's payload must stay under 8000 bytes: a long list of users is split over several events. */
export const MAX_PAYLOAD = 7_000;

/** The NOTIFY payloads of an event: a long list of users is split over several. */
function payloadsOf(event: LiveEvent): string[] {
  const users = [...new Set(event.u)];
  if (!users.length) return [];
  const payloads: string[] = [];
  let batch: string[] = [];
  const text = (u: string[]) => JSON.stringify({ ...event, u });
  for (const user of users) {
    batch.push(user);
    if (text(batch).length > MAX_PAYLOAD && batch.length > 1) {
      batch.pop();
      payloads.push(text(batch));
      batch = [user];
    }
  }
  payloads.push(text(batch));
  return payloads;
}

/** The NOTIFY payloads of events (for a caller that sends them inside a statement of its own). */
export const livePayloads = (...events: LiveEvent[]): string[] => events.flatMap(payloadsOf);

/** Sends events to their users' browsers once the executor's transaction commits (at once outside one): one statement. */
export async function publishLive(executor: Kysely<any>, ...events: LiveEvent[]): Promise<void> {
  const payloads = livePayloads(...events);
  if (!payloads.length) return;
  await sql`select ${sql.join(payloads.map((p) => sql`pg_notify(${LIVE_CHANNEL}, ${p})`))}`.execute(executor);
}

export function parseLiveEvent(payload: string): LiveEvent | undefined {
  try {
    const value = JSON.parse(payload) as LiveEvent;
    return typeof value.e === 'string' && Array.isArray(value.u) && typeof value.k === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

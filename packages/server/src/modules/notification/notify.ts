import { sql } from 'kysely';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import type { MessageCategory, OutsideChannel } from '@tritium/shared/constants/messages';
import type { Db } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { newId } from '../../lib/ids.ts';
import { enqueueJobs } from '../../jobs/job-runner.ts';
import { publishLive, type LiveEvent } from '../../lib/live-events.ts';
import { channelsOf, ENGINE_DEFAULTS } from './preferences.ts';

// The notification service (issue 20; docs/decisions/0038): the one call every producer makes. Inside the producer's
// transaction it stores the in-app messages, queues one delivery job per outside channel the receiver's preferences
// name (never sending anything in the request), and announces the messages to the receivers' browsers, which hear of
// them only if the transaction commits.

export const NOTIFICATION_DELIVERY_JOB = 'notification.deliver';

export interface Notice {
  category: MessageCategory;
  /** Plain text, cut to 200 characters. */
  title: string;
  /** Plain text, cut to 2000 characters. */
  content?: string;
  sender?: string | null;
  link?: { schemaCode?: string | null; objectId?: string | null; workItemId?: string | null; instanceId?: string | null };
}

/** One notice for one receiver. */
export interface Addressed {
  receiver: string;
  notice: Notice;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The notice's path in the web app (the message center opens it; outside channels prefix the server's address). */
export function linkPath(link: Notice['link']): string | null {
  if (link?.schemaCode && link.objectId) return `${FORM_RUNTIME_PATH}/${encodeURIComponent(link.schemaCode)}/${encodeURIComponent(link.objectId)}`;
  return null;
}

/** Sends one notice to several receivers. */
export function notify(edb: EngineExecutor, engineCode: string, receivers: readonly string[], notice: Notice): Promise<void> {
  return notifyEach(edb, engineCode, [...new Set(receivers)].map((receiver) => ({ receiver, notice })));
}

/**
 * Sends notices (each to its receiver) in at most three statements, whatever their number: the messages stored with
 * their receivers' channel preferences read in the same statement, the deliveries with their jobs when an outside
 * channel is wanted, and one NOTIFY — which also carries `todos`, the people whose to-do counts the caller changed.
 */
export async function notifyEach(edb: EngineExecutor, engineCode: string, items: readonly Addressed[], options: { todos?: Iterable<string> } = {}): Promise<void> {
  const todos = [...new Set(options.todos ?? [])];
  const rows = items.map(({ receiver, notice }) => ({
    id: newId(),
    receiver,
    category: notice.category,
    title: cut(notice.title.trim() || '—', 200),
    content: cut(notice.content ?? '', 2000),
    sender: notice.sender ?? null,
    schema_code: notice.link?.schemaCode ?? null,
    object_id: notice.link?.objectId ?? null,
    work_item_id: notice.link?.workItemId ?? null,
    instance_id: notice.link?.instanceId ?? null,
  }));
  const stored = rows.length
    ? await edb
        .with('ins', (db) => db.insertInto('internal_messages').values(rows).returning(['id', 'seq', 'receiver', 'category', 'title']))
        .selectFrom('ins')
        .leftJoin('notification_preferences as own', (j) => j.onRef('own.owner', '=', 'ins.receiver').onRef('own.category', '=', 'ins.category'))
        .leftJoin('notification_preferences as engine', (j) => j.on('engine.owner', '=', ENGINE_DEFAULTS).onRef('engine.category', '=', 'ins.category'))
        .select(['ins.id', 'ins.seq', 'ins.receiver', 'ins.category', 'ins.title', 'own.channels as own', 'engine.channels as engine'])
        .execute()
    : [];

  // Outside channels, by the receivers' preferences over the engine's defaults.
  const wanted = channelsOf(stored.map((r) => ({ category: r.category as MessageCategory, own: r.own ?? null, engine: r.engine ?? null })));
  const deliveries: { id: string; message_id: string; channel: OutsideChannel }[] = [];
  stored.forEach((row, i) => {
    for (const channel of wanted[i]!) deliveries.push({ id: newId(), message_id: row.id, channel });
  });
  if (deliveries.length) {
    await edb.insertInto('notification_deliveries').values(deliveries).execute();
    await enqueueJobs(edb as unknown as Db, deliveries.map((d) => ({ engineCode, kind: NOTIFICATION_DELIVERY_JOB, payload: { deliveryId: d.id } })));
  }

  // One live event per category and title: the newest seq of the batch is the stream's watermark.
  const groups = new Map<string, LiveEvent & { d: { seq: number } }>();
  for (const row of stored) {
    const key = `${row.category}\u0000${row.title}`;
    const g = groups.get(key) ?? { e: engineCode, u: [], k: 'message' as const, d: { seq: 0, category: row.category, title: row.title } };
    g.u.push(row.receiver);
    g.d.seq = Math.max(g.d.seq, Number(row.seq));
    groups.set(key, g);
  }
  const events: LiveEvent[] = [...groups.values()];
  if (todos.length) events.push({ e: engineCode, u: todos, k: 'todos' });
  await publishLive(edb, ...events);
}

/** Messages of a receiver after a stream's Last-Event-ID, oldest first (the live stream's replay). */
export async function messagesAfter(edb: EngineExecutor, receiver: string, seq: number, limit = 200) {
  return edb
    .selectFrom('internal_messages')
    .select(['seq', 'category', 'title'])
    .where('receiver', '=', receiver)
    .where('seq', '>', sql<number>`${seq}`)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

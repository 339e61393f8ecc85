import { sql } from 'kysely';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import type { MessageCategory, OutsideChannel } from '@tritium/shared/constants/messages';
import type { Db } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { newId } from '../../lib/ids.ts';
import { enqueueJobs } from '../../jobs/job-runner.ts';
import { publishLive } from '../../lib/live-events.ts';
import { channelsFor } from './preferences.ts';

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

/** Sends notices (each to its receiver) in a fixed number of statements, whatever their number. */
export async function notifyEach(edb: EngineExecutor, engineCode: string, items: readonly Addressed[]): Promise<void> {
  if (!items.length) return;
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
  const stored = await edb.insertInto('internal_messages').values(rows).returning(['id', 'seq']).execute();
  const seqOf = new Map(stored.map((r) => [r.id, Number(r.seq)]));

  // Outside channels, by the receivers' preferences over the engine's defaults.
  const wanted = await channelsFor(edb, rows.map((r) => ({ receiver: r.receiver, category: r.category as MessageCategory })));
  const deliveries: { id: string; message_id: string; channel: OutsideChannel }[] = [];
  rows.forEach((row, i) => {
    for (const channel of wanted[i]!) deliveries.push({ id: newId(), message_id: row.id, channel });
  });
  if (deliveries.length) {
    await edb.insertInto('notification_deliveries').values(deliveries).execute();
    await enqueueJobs(edb as unknown as Db, deliveries.map((d) => ({ engineCode, kind: NOTIFICATION_DELIVERY_JOB, payload: { deliveryId: d.id } })));
  }

  // One live event per category and title: the newest seq of the batch is the stream's watermark.
  const groups = new Map<string, { users: string[]; seq: number; category: string; title: string }>();
  for (const row of rows) {
    const key = `${row.category}\u0000${row.title}`;
    const g = groups.get(key) ?? { users: [], seq: 0, category: row.category, title: row.title };
    g.users.push(row.receiver);
    g.seq = Math.max(g.seq, seqOf.get(row.id) ?? 0);
    groups.set(key, g);
  }
  for (const g of groups.values()) await publishLive(edb, { e: engineCode, u: g.users, k: 'message', d: { seq: g.seq, category: g.category, title: g.title } });
}

/** Tells the users' browsers that their to-do counts changed (after the transaction commits). */
export async function announceTodos(edb: EngineExecutor, engineCode: string, userIds: Iterable<string>): Promise<void> {
  await publishLive(edb, { e: engineCode, u: [...new Set(userIds)], k: 'todos' });
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

import { sql, type Kysely, type RawBuilder } from 'kysely';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import type { MessageCategory, OutsideChannel } from '@tritium/shared/constants/messages';
import type { Db } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { newId } from '../../lib/ids.ts';
import { enqueueJobs } from '../../jobs/job-runner.ts';
import { LIVE_CHANNEL, MAX_PAYLOAD, livePayloads } from '../../lib/live-events.ts';
import { WriteBatch } from '../../db/write-batch.ts';
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

type MessageRow = ReturnType<typeof messageRows>[number];
type Stored = { id: string; seq: number | string; receiver: string; category: string; title: string; own: unknown; engine: unknown };

function messageRows(items: readonly Addressed[]) {
  return items.map(({ receiver, notice }) => ({
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
}

const insertMessages = (edb: EngineExecutor, rows: MessageRow[]) => edb.insertInto('internal_messages').values(rows).returning(['id', 'seq', 'receiver', 'category', 'title']);

/** Outside channels, by the receivers' preferences over the engine's defaults: the deliveries and their jobs (two statements, when any is wanted). */
async function queueDeliveries(edb: EngineExecutor, engineCode: string, stored: readonly Stored[]): Promise<void> {
  const wanted = channelsOf(stored.map((r) => ({ category: r.category as MessageCategory, own: r.own ?? null, engine: r.engine ?? null })));
  const deliveries: { id: string; message_id: string; channel: OutsideChannel }[] = [];
  stored.forEach((row, i) => {
    for (const channel of wanted[i]!) deliveries.push({ id: newId(), message_id: row.id, channel });
  });
  if (!deliveries.length) return;
  await edb.insertInto('notification_deliveries').values(deliveries).execute();
  await enqueueJobs(edb as unknown as Db, deliveries.map((d) => ({ engineCode, kind: NOTIFICATION_DELIVERY_JOB, payload: { deliveryId: d.id } })));
}

/**
 * Sends notices (each to its receiver) in one statement, whatever their number, and two more when an outside channel
 * is wanted: the messages stored, their receivers' channel preferences read and the live events sent (`addNotices`,
 * which also carries `todos`, the people whose to-do counts the caller changed), then the deliveries with their jobs.
 */
export async function notifyEach(edb: EngineExecutor, engineCode: string, items: readonly Addressed[], options: { todos?: Iterable<string> } = {}): Promise<void> {
  const batch = new WriteBatch(edb as unknown as Kysely<any>);
  addNotices(batch, edb, engineCode, items, options);
  await batch.flush();
}

/**
 * Notices as part of the caller's write statement (docs/decisions/0101): the messages' insert is one of its writes,
 * and its SELECT reads their receivers' channel preferences and sends the live events, one per category and title
 * with the batch's newest seq (the stream's watermark), formed by the database from the stored rows (their seq is
 * known only there), a long list of receivers split over several NOTIFYs. Deliveries to outside channels follow the statement when one is wanted.
 */
export function addNotices(batch: WriteBatch, edb: EngineExecutor, engineCode: string, items: readonly Addressed[], options: { todos?: Iterable<string> } = {}): void {
  const todos = [...new Set(options.todos ?? [])];
  const rows = messageRows(items);
  if (rows.length) {
    const ins = batch.addNamed('notices', insertMessages(edb, rows));
    const stored = batch.alias('stored');
    batch.select(
      (eb) =>
        eb
          .selectFrom(`${ins} as m` as 'internal_messages')
          .leftJoin('notification_preferences as own', (j) => j.onRef('own.owner', '=', sql.ref('m.receiver')).onRef('own.category', '=', sql.ref('m.category')))
          .leftJoin('notification_preferences as engine', (j) => j.on('engine.owner', '=', ENGINE_DEFAULTS).onRef('engine.category', '=', sql.ref('m.category')))
          .select(
            sql`coalesce(json_agg(json_build_object('id', m.id, 'seq', m.seq, 'receiver', m.receiver, 'category', m.category, 'title', m.title, 'own', own.channels, 'engine', engine.channels)), '[]'::json)`.as(
              'j',
            ),
          )
          .as(stored),
      async (row) => queueDeliveries(edb, engineCode, (row[stored] ?? []) as Stored[]),
    );
    // Receivers per NOTIFY: a receiver's id with its quotes and comma, under the payload's limit beside a title
    // of 200 characters (escaped at most 6 bytes each) and the event's other fields.
    const longest = Math.max(...rows.map((r) => JSON.stringify(r.receiver).length + 1));
    const perNotify = Math.max(1, Math.floor((MAX_PAYLOAD - 1_500) / longest));
    // Formed from the stored rows: inside the statement from its insert, after the COMMIT from the table.
    const events = (source: RawBuilder<unknown>) =>
      sql<number>`select count(pg_notify(${LIVE_CHANNEL}, p.payload)) from (
        select json_build_object('e', ${engineCode}::text, 'u', json_agg(x.receiver order by x.receiver), 'k', 'message',
          'd', json_build_object('seq', max(x.newest), 'category', x.category, 'title', x.title))::text as payload
        from (select g.*, (row_number() over (partition by g.category, g.title order by g.receiver) - 1) / ${perNotify}::int as part
          from (select distinct m.receiver, m.category, m.title, max(m.seq) over (partition by m.category, m.title) as newest
            from ${source} as m) g) x
        group by x.category, x.title, x.part) p`;
    const ids = rows.map((r) => r.id);
    batch.notify(
      () => sql<number>`(${events(sql.id(ins))})`.as(batch.alias('notified')),
      events(sql`(${edb.selectFrom('internal_messages').select(['receiver', 'category', 'title', 'seq']).where('id', 'in', ids)})`),
    );
  }
  if (todos.length) {
    const payloads = livePayloads({ e: engineCode, u: todos, k: 'todos' });
    const events = sql<number>`select count(pg_notify(${LIVE_CHANNEL}, p.payload)) from (values ${sql.join(payloads.map((p) => sql`(${p}::text)`))}) as p(payload)`;
    batch.notify(() => sql<number>`(${events})`.as(batch.alias('notified')), events);
  }
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

import { sql, type Kysely, type RawBuilder } from 'kysely';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import { OUTSIDE_CHANNELS, type MessageCategory } from '@tritium/shared/constants/messages';
import type { Db } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { newId } from '../../lib/ids.ts';
import { currentRequestId } from '../../lib/request-context.ts';
import { LIVE_CHANNEL, MAX_PAYLOAD, livePayloads } from '../../lib/live-events.ts';
import { WriteBatch } from '../../db/write-batch.ts';
import { ENGINE_DEFAULTS } from './preferences.ts';

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

/**
 * Outside channels, by the receivers' preferences over the engine's defaults (preferences.ts), as writes of the
 * caller's statement (docs/decisions/0134): one delivery per wanted channel of each stored message and its job, the
 * engine's robot once per category of the batch. Nothing of the statement's row is waited on, so an action's write
 * still goes with its COMMIT in one round trip (docs/decisions/0104).
 */
function addDeliveries(batch: WriteBatch, edb: EngineExecutor, engineCode: string, messages: string): void {
  const personal = OUTSIDE_CHANNELS.filter((c) => c !== 'robot');
  // The statement's own writes are named in raw SQL: the engine's schema would be put in front of a plain name here.
  const wanted = edb
    .selectFrom(sql`${sql.id(messages)}`.as('m') as never as 'internal_messages as m')
    .leftJoin('notification_preferences as own', (j) => j.onRef('own.owner', '=', sql.ref('m.receiver')).onRef('own.category', '=', sql.ref('m.category')))
    .leftJoin('notification_preferences as engine', (j) => j.on('engine.owner', '=', ENGINE_DEFAULTS).onRef('engine.category', '=', sql.ref('m.category')))
    .innerJoin(
      sql<{ channel: string }>`lateral (
        select c.channel from jsonb_array_elements_text(case when jsonb_typeof(coalesce(own.channels, engine.channels)) = 'array' then coalesce(own.channels, engine.channels) else '[]'::jsonb end) as c(channel)
        where c.channel in (${sql.join(personal)})
        union all
        select 'robot' where m.id = (select r.id from ${sql.id(messages)} as r where r.category = m.category order by r.seq limit 1)
          and jsonb_typeof(engine.channels) = 'array' and engine.channels @> '["robot"]'::jsonb)`.as('w'),
      (j) => j.onTrue(),
    )
    .select([sql<string>`gen_random_uuid()`.as('id'), 'm.id as message_id', 'w.channel']);
  const deliveries = batch.addNamed('deliveries', edb.insertInto('notification_deliveries').columns(['id', 'message_id', 'channel']).expression(wanted as never).returning('id'));
  const requestId = currentRequestId() ?? null;
  batch.add(
    (edb as unknown as Db)
      .insertInto('platform.jobs')
      .columns(['id', 'engine_code', 'kind', 'payload', 'request_id'])
      .expression(
        edb
          .selectFrom(sql`${sql.id(deliveries)}`.as('d') as never as 'notification_deliveries as d')
          .select([
            sql<string>`gen_random_uuid()::text`.as('id'),
            sql<string>`${engineCode}::text`.as('engine_code'),
            sql<string>`${NOTIFICATION_DELIVERY_JOB}::text`.as('kind'),
            sql<string>`jsonb_build_object('deliveryId', d.id)`.as('payload'),
            sql<string | null>`${requestId}::text`.as('request_id'),
          ]) as never,
      ),
  );
}

/**
 * Sends notices (each to its receiver) in one statement, whatever their number: the messages stored, the deliveries
 * their receivers' preferences want queued with their jobs, and the live events sent (`addNotices`, which also
 * carries `todos`, the people whose to-do counts the caller changed).
 */
export async function notifyEach(edb: EngineExecutor, engineCode: string, items: readonly Addressed[], options: { todos?: Iterable<string> } = {}): Promise<void> {
  const batch = new WriteBatch(edb as unknown as Kysely<any>);
  addNotices(batch, edb, engineCode, items, options);
  await batch.flush();
}

/**
 * Notices as part of the caller's write statement (docs/decisions/0101): the messages' insert is one of its writes,
 * so are the deliveries to outside channels with their jobs (`addDeliveries`), and the live events go one per
 * category and title with the batch's newest seq (the stream's watermark), formed by the database from the stored
 * rows (their seq is known only there), a long list of receivers split over several NOTIFYs — with the to-do
 * counts' events, one statement of them (docs/decisions/0134).
 */
export function addNotices(batch: WriteBatch, edb: EngineExecutor, engineCode: string, items: readonly Addressed[], options: { todos?: Iterable<string> } = {}): void {
  const todos = [...new Set(options.todos ?? [])];
  const rows = messageRows(items);
  /** The events' counting statements: read from the statement's insert (PGlite), or from the table after the COMMIT. */
  const inside: RawBuilder<number>[] = [];
  const after: RawBuilder<number>[] = [];
  if (rows.length) {
    const ins = batch.addNamed('notices', insertMessages(edb, rows));
    addDeliveries(batch, edb, engineCode, ins);
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
    inside.push(events(sql.id(ins)));
    after.push(events(sql`(${edb.selectFrom('internal_messages').select(['receiver', 'category', 'title', 'seq']).where('id', 'in', ids)})`));
  }
  if (todos.length) {
    const payloads = livePayloads({ e: engineCode, u: todos, k: 'todos' });
    const events = sql<number>`select count(pg_notify(${LIVE_CHANNEL}, p.payload)) from (values ${sql.join(payloads.map((p) => sql`(${p}::text)`))}) as p(payload)`;
    inside.push(events);
    after.push(events);
  }
  // The messages' and the to-do counts' events in one statement (docs/decisions/0134): behind the COMMIT each
  // statement is a transaction of its own, with its own start, snapshot and commit signalling the listeners.
  if (inside.length) {
    const sum = (parts: RawBuilder<number>[]) => sql.join(parts.map((p) => sql`(${p})`), sql` + `);
    batch.notify(() => sql<number>`${sum(inside)}`.as(batch.alias('notified')), after.length === 1 ? after[0]! : sql`select ${sum(after)}`);
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

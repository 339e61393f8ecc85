import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import type { EngineDb } from '../../db/types.ts';

// Reading the operation log (docs/decisions/0113): newest first, filtered by time, person, kind and text.

type Filter = z.output<typeof contracts.OplogFilterQuery>;
const from = (edb: Kysely<EngineDb>) => edb.selectFrom('oplog');
type OplogQuery = ReturnType<typeof from>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function filtered(edb: Kysely<EngineDb>, f: Filter): OplogQuery {
  let q: OplogQuery = from(edb);
  if (f.from) q = q.where('time', '>=', sql<Date>`${f.from}::timestamptz`);
  if (f.to) q = q.where('time', '<=', sql<Date>`${f.to}::timestamptz`);
  if (f.userId) q = q.where('user_id', '=', f.userId);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.text) {
    const like = `%${escapeLike(f.text)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('object_name', 'ilike', like),
        eb('object_id', 'ilike', like),
        eb('user_name', 'ilike', like),
        eb(sql<string>`"before"::text`, 'ilike', like),
        eb(sql<string>`"after"::text`, 'ilike', like),
      ]),
    );
  }
  return q;
}

type Row = Awaited<ReturnType<typeof rowsOf>>[number];
const rowsOf = (q: OplogQuery, offset: number, limit: number) =>
  q.select(['seq', 'time', 'user_id', 'user_name', 'kind', 'action', 'object_id', 'object_name', 'before', 'after', 'request_id', 'ip']).orderBy('seq', 'desc').offset(offset).limit(limit).execute();

const present = (r: Row): contracts.OplogEntryDto => ({
  seq: Number(r.seq),
  time: new Date(r.time).toISOString(),
  userId: r.user_id,
  userName: r.user_name,
  kind: r.kind as contracts.OplogKind,
  action: r.action as contracts.OplogAction,
  objectId: r.object_id,
  objectName: r.object_name,
  before: r.before ?? null,
  after: r.after ?? null,
  requestId: r.request_id,
  ip: r.ip,
});

export async function listOperations(edb: Kysely<EngineDb>, query: z.output<typeof contracts.OplogListQuery>): Promise<z.infer<typeof contracts.OplogListResult>> {
  const { pageIndex, pageSize, ...f } = query;
  const size = pageSize === -1 ? 500 : pageSize;
  const [rows, count] = await Promise.all([
    rowsOf(filtered(edb, f), pageIndex * size, size),
    filtered(edb, f).select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return { list: rows.map(present), total, hasMore: (pageIndex + 1) * size < total };
}

/** At most this many entries go into one export (newest first). */
export const EXPORT_LIMIT = 10_000;

export async function operationsToExport(edb: Kysely<EngineDb>, f: Filter): Promise<contracts.OplogEntryDto[]> {
  return (await rowsOf(filtered(edb, f), 0, EXPORT_LIMIT)).map(present);
}

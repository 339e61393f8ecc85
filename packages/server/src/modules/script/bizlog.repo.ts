import { sql, type Insertable, type Kysely } from 'kysely';
import type { BizLogTable, Db, EngineDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';

// The business log's table (docs/decisions/0118): written after each script run, read newest first, cleaned daily.

export type BizLogPart = BizLogTable['part'];
export type NewBizLog = Insertable<BizLogTable>;

export interface BizLogFilter {
  /** The apps the reader may see; undefined: all of the engine's. */
  appCodes?: readonly string[];
  schemaCode?: string;
  level?: BizLogTable['level'];
  from?: string;
  to?: string;
  text?: string;
}

/** Writes a run's rows (through the database given: the caller's transaction or the database itself). */
export async function insertBizLogs(db: Db, engineCode: string, rows: readonly NewBizLog[]): Promise<void> {
  if (rows.length) await engineDb(db, engineCode).insertInto('biz_logs').values([...rows]).execute();
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function filtered(edb: Kysely<EngineDb>, f: BizLogFilter) {
  let q = edb.selectFrom('biz_logs as l');
  if (f.appCodes) q = f.appCodes.length ? q.where('l.app_code', 'in', [...f.appCodes]) : q.where(sql<boolean>`false`);
  if (f.schemaCode) q = q.where('l.schema_code', '=', f.schemaCode);
  if (f.level) q = q.where('l.level', '=', f.level);
  if (f.from) q = q.where('l.at', '>=', sql<Date>`${f.from}::timestamptz`);
  if (f.to) q = q.where('l.at', '<=', sql<Date>`${f.to}::timestamptz`);
  if (f.text) q = q.where('l.message', 'ilike', `%${escapeLike(f.text)}%`);
  return q;
}

/** A page of the log, newest first, with the total and each writer's name. */
export async function listBizLogs(edb: Kysely<EngineDb>, f: BizLogFilter, page: { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    filtered(edb, f)
      .leftJoin('org_users as u', 'u.id', 'l.user_id')
      .select(['l.id', 'l.at', 'l.app_code', 'l.schema_code', 'l.part', 'l.handler', 'l.level', 'l.message', 'l.line', 'l.duration_ms', 'l.request_id', 'l.user_id', 'u.name as user_name'])
      .orderBy('l.at', 'desc')
      .orderBy('l.id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(edb, f).select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Removes the engine's rows written before `cutoff`; answers how many. */
export async function removeBizLogsBefore(db: Db, engineCode: string, cutoff: Date): Promise<number> {
  const removed = await engineDb(db, engineCode).deleteFrom('biz_logs').where('at', '<', cutoff).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

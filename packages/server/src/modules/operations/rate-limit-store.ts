import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';

// The per-address request limits counted in PostgreSQL (docs/decisions/0121), for @fastify/rate-limit's `store`: with
// several server processes on one database, every process counts against one allowance per route and address (in
// memory, three processes would allow three times the sign-in attempts). One upsert per limited request.

type Answer = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** What the plugin hands a route's child store (its typings name the route's options; it passes them as `routeInfo`). */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

/** A store class bound to `db`, as @fastify/rate-limit wants it (it constructs the store, then one child per route). */
export function postgresRateLimitStore(db: Db) {
  return class PostgresRateLimitStore {
    readonly route: string;

    constructor(_globalOptions?: unknown, route = '') {
      this.route = route;
    }

    /** Counts one request; a window that ended starts again at 1. Answers the count and the window's time left (ms). */
    incr(key: string, answer: Answer, timeWindow: number): void {
      countRequest(db, `${this.route}|${key}`, timeWindow).then((counted) => answer(null, counted), (error: Error) => answer(error));
    }

    /** The count without counting (`{ increment: false }` callers). */
    read(key: string, answer: Answer): void {
      sql<{ current: number; ttl: number }>`
        select count as current, greatest(0, ceil(extract(epoch from reset_time - now()) * 1000))::int as ttl
        from platform.rate_limit_counters where key = ${`${this.route}|${key}`} and reset_time > now()`
        .execute(db)
        .then(({ rows }) => answer(null, rows[0] ?? { current: 0, ttl: 0 }), (error: Error) => answer(error));
    }

    /** The store of one route: its counters are apart from other routes' (as the memory store's are). */
    child(routeOptions: object): PostgresRateLimitStore {
      const info = (routeOptions as ChildOptions).routeInfo ?? {};
      const method = Array.isArray(info.method) ? info.method.join(',') : (info.method ?? '');
      return new PostgresRateLimitStore(undefined, `${method} ${info.url ?? ''}`);
    }
  };
}

/**
 * Counts one request against `key` in a window of `windowMs` (a window that ended starts again at 1): one upsert, so
 * concurrent requests of every process count exactly once each. Answers the count and the window's time left (ms).
 */
export async function countRequest(db: Db, key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
  const { rows } = await sql<{ current: number; ttl: number }>`
    insert into platform.rate_limit_counters as c (key, count, reset_time)
    values (${key}, 1, now() + ${Math.max(1, Math.round(windowMs))} * interval '1 millisecond')
    on conflict (key) do update set
      count = case when c.reset_time <= now() then 1 else c.count + 1 end,
      reset_time = case when c.reset_time <= now() then excluded.reset_time else c.reset_time end
    returning count as current, greatest(0, ceil(extract(epoch from reset_time - now()) * 1000))::int as ttl`.execute(db);
  return rows[0]!;
}

/** Drops counters whose window ended more than an hour ago (main.ts, hourly). */
export async function purgeEndedRateLimitCounters(db: Db): Promise<void> {
  await db.deleteFrom('platform.rate_limit_counters').where('reset_time', '<', sql<Date>`now() - interval '1 hour'`).execute();
}

import type { Transaction } from 'kysely';
import type { Db, PlatformDb } from './types.ts';

// A service that opens its own transaction (ctx.db.transaction().execute(work)) run inside one already open: the
// open API starts a record's flow in the transaction that saved the record, through the workflow module's public
// start call (docs/decisions/0030), and the workflow's time-limit sweep acts on an item in the transaction that holds
// its timer (docs/decisions/0042). Everything else on the handle is the open transaction itself.

/** A Db handle whose transaction() joins `trx` (no nested transaction, no second connection). */
export function joinedDb(trx: Transaction<PlatformDb>): Db {
  const joined = { execute: <T>(work: (t: Transaction<PlatformDb>) => Promise<T>): Promise<T> => work(trx) };
  return new Proxy(trx, {
    get(target, prop) {
      if (prop === 'transaction') return () => joined;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as unknown as Db;
}

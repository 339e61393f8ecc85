import type { z } from 'zod';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';

// What the workflow services share: one transaction on the caller's engine, and a contract's parsed type.

export type Out<T extends z.ZodType> = z.output<T>;

/**
 * `work` runs in a transaction on the caller's engine; `owned` tells it whether the transaction is its own (false when
 * the caller's handle joins one already open, docs/decisions/0030 and 0042), so whether it may end it early.
 */
export function inTransaction<T>(ctx: NodeContext, work: (edb: EngineExecutor, owned: boolean) => Promise<T>): Promise<T> {
  const owned = !ctx.db.isTransaction;
  return ctx.db.transaction().execute((trx) => work(engineDb(trx as unknown as Db, ctx.engineCode), owned));
}

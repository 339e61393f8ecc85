import type { z } from 'zod';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';

// What the workflow services share: one transaction on the caller's engine, and a contract's parsed type.

export type Out<T extends z.ZodType> = z.output<T>;

export function inTransaction<T>(ctx: NodeContext, work: (edb: EngineExecutor) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute((trx) => work(engineDb(trx as unknown as Db, ctx.engineCode)));
}

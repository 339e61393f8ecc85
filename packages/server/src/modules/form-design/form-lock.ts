import { sql, type Transaction } from 'kysely';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { viewerOf, type NodeContext } from '../function-node/node-context.ts';
import type { NodeViewer } from '../function-node/function-node.policy.ts';
import { markChanging } from '../request-context/context.ts';

/**
 * Runs a change of an engine's form tables (publish, custom indexes) in one transaction holding the engine's form
 * lock: table names are chosen and DDL applied one change at a time. Inside, only the transaction is used
 * (docs/decisions/0001: the PGlite driver would wait for itself otherwise).
 */
/** Takes the engine's form lock inside a transaction already open (removing nodes drops their forms' tables). */
export async function lockForms(trx: Transaction<PlatformDb>, engineCode: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`tritium:form:${engineCode}`}))`.execute(trx);
}

export async function inFormTransaction<T>(ctx: NodeContext, work: (tx: { edb: EngineExecutor; viewer: NodeViewer }) => Promise<T>): Promise<T> {
  markChanging(ctx.context);
  return ctx.db.transaction().execute(async (trx: Transaction<PlatformDb>) => {
    await lockForms(trx, ctx.engineCode);
    const edb = engineDb(trx as unknown as Db, ctx.engineCode);
    return work({ edb, viewer: await viewerOf(edb, ctx) });
  });
}

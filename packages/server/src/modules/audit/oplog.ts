import type { FastifyRequest } from 'fastify';
import type { contracts } from '@tritium/shared';
import type { Kysely } from 'kysely';
import type { EngineDb } from '../../db/types.ts';
import { hashOf, maskSecrets, type ChainedContent } from './oplog-chain.ts';

// recordOperation (docs/decisions/0113): the services call it inside the transaction of the change, so a change
// rolled back leaves no entry. The chain's head row is locked until the commit: concurrent writes keep one chain.

/** Where a request came from: its id (the x-request-id answered) and the caller's address. */
export interface RequestOrigin {
  requestId: string;
  ip: string;
}

/** Who changes: the user, and the request when the change comes through one. */
export interface OperationActor {
  userId: string | null;
  origin?: RequestOrigin;
}

export interface Operation {
  kind: contracts.OplogKind;
  action: contracts.OplogAction;
  objectId?: string | null;
  objectName?: string | null;
  before?: unknown;
  after?: unknown;
}

export const originOf = (request: FastifyRequest): RequestOrigin => ({ requestId: request.id, ip: request.ip });

const jsonOrNull = (value: unknown) => (value === null ? null : JSON.stringify(value));
/** The value as it reads back from the database: masked, then through JSON (dates as text, no undefined). */
const stored = (value: unknown): unknown => {
  const masked = maskSecrets(value);
  return masked === null ? null : JSON.parse(JSON.stringify(masked));
};

/** Appends one entry to the engine's log; `edb` must be the change's transaction. */
export async function recordOperation(edb: Kysely<EngineDb>, ctx: OperationActor, op: Operation): Promise<void> {
  const head = await edb
    .selectFrom('oplog_head')
    .select(['last_seq', 'last_hash'])
    .select((eb) => eb.selectFrom('org_users').select('name').where('id', '=', ctx.userId ?? '').as('user_name'))
    .where('id', '=', 1)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const entry: ChainedContent = {
    seq: Number(head.last_seq) + 1,
    time: new Date().toISOString(),
    userId: ctx.userId,
    userName: head.user_name ?? null,
    kind: op.kind,
    action: op.action,
    objectId: op.objectId ?? null,
    objectName: op.objectName ?? null,
    before: stored(op.before),
    after: stored(op.after),
    requestId: ctx.origin?.requestId ?? null,
    ip: ctx.origin?.ip ?? null,
    prevHash: head.last_hash,
  };
  const hash = hashOf(entry);
  await edb
    .insertInto('oplog')
    .values({
      seq: entry.seq, time: entry.time, user_id: entry.userId, user_name: entry.userName, kind: entry.kind, action: entry.action,
      object_id: entry.objectId, object_name: entry.objectName, before: jsonOrNull(entry.before), after: jsonOrNull(entry.after),
      request_id: entry.requestId, ip: entry.ip, prev_hash: entry.prevHash, hash,
    })
    .execute();
  await edb.updateTable('oplog_head').set({ last_seq: entry.seq, last_hash: hash }).where('id', '=', 1).execute();
}

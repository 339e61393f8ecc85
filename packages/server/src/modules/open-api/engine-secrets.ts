import { createHash, randomBytes } from 'node:crypto';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { AUTH_TYPE_ADMINISTRATOR } from '../../plugins/auth.ts';
import { assertEngineUsable } from '../engine/engine-state.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { ContextCaches } from '../request-context/context.ts';
import { readSecretContext } from '../request-context/context-statement.ts';
import { recordOperation } from '../audit/oplog.ts';

/** How often a secret's use time is written at most. */
const LAST_USED_EVERY_MS = 60_000;

// Engine secrets (docs/decisions/0021): issued, listed (masked) and revoked by an Administrator; only a SHA-256 hash
// is stored. A secret acts as the Administrator who issued it, as long as that person is still an active Administrator.

export const hashSecret = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');
const mask = (value: string): string => `${value.slice(0, 4)}…${value.slice(-4)}`;
const iso = (v: Date | string | null): string | null => (v == null ? null : new Date(v).toISOString());

type SecretRow = { id: string; name: string; masked: string; created_by: string; created_time: Date; last_used_time: Date | null; revoked_time: Date | null; user_name?: string | null };

function present(row: SecretRow): contracts.EngineSecretDto {
  return {
    id: row.id,
    name: row.name,
    masked: row.masked,
    createdBy: row.created_by,
    createdByName: row.user_name ?? null,
    createdTime: iso(row.created_time)!,
    lastUsedTime: iso(row.last_used_time),
    revokedTime: iso(row.revoked_time),
  };
}

/** Every secret of the engine, newest first (revoked ones too, marked). */
export async function listSecrets(db: Db, engineCode: string): Promise<contracts.EngineSecretListResult> {
  const rows = await engineDb(db, engineCode)
    .selectFrom('engine_secrets as s')
    .leftJoin('org_users as u', 'u.id', 's.created_by')
    .select(['s.id', 's.name', 's.masked', 's.created_by', 's.created_time', 's.last_used_time', 's.revoked_time', 'u.name as user_name'])
    .orderBy('s.created_time', 'desc')
    .orderBy('s.id', 'desc')
    .execute();
  return { engineCode, list: rows.map((r) => present(r as SecretRow)) };
}

/** A new secret: answered whole this once; at most ENGINE_SECRET_ACTIVE_LIMIT active at a time. */
export async function createSecret(ctx: NodeContext, name: string): Promise<contracts.EngineSecretCreateResult> {
  return ctx.db.transaction().execute(async (trx) => {
    const edb = engineDb(trx as unknown as Db, ctx.engineCode);
    // Serialise creates of one engine so two cannot both pass the limit.
    await edb.selectFrom('org_users').select('id').where('id', '=', ctx.userId).forUpdate().execute();
    const active = await edb.selectFrom('engine_secrets').select((e) => e.fn.countAll<number>().as('n')).where('revoked_time', 'is', null).executeTakeFirstOrThrow();
    if (Number(active.n) >= contracts.ENGINE_SECRET_ACTIVE_LIMIT) throw new AppError('EngineSecretLimit', { detail: { limit: contracts.ENGINE_SECRET_ACTIVE_LIMIT } });
    const value = randomBytes(24).toString('base64url');
    const row = await edb
      .insertInto('engine_secrets')
      .values({ id: newId(), name, secret_hash: hashSecret(value), masked: mask(value), created_by: ctx.userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    const user = await edb.selectFrom('org_users').select('name').where('id', '=', ctx.userId).executeTakeFirst();
    await recordOperation(edb, ctx, { kind: 'openApiKey', action: 'create', objectId: row.id, objectName: name, after: { name, masked: row.masked } });
    return { secret: present({ ...(row as SecretRow), user_name: user?.name ?? null }), value };
  });
}

/** Revokes an active secret of the engine (320005 when unknown or revoked already). */
export async function revokeSecret(ctx: NodeContext, id: string): Promise<contracts.EngineSecretDto> {
  return ctx.db.transaction().execute(async (trx) => {
    const edb = engineDb(trx as unknown as Db, ctx.engineCode);
    const row = await edb.updateTable('engine_secrets').set({ revoked_time: new Date() }).where('id', '=', id).where('revoked_time', 'is', null).returningAll().executeTakeFirst();
    if (!row) throw new AppError('EngineSecretNotFound', { detail: { id } });
    await recordOperation(edb, ctx, { kind: 'openApiKey', action: 'revoke', objectId: id, objectName: row.name, before: { name: row.name, masked: row.masked, revoked: false }, after: { revoked: true } });
    return present(row as SecretRow);
  });
}

/**
 * The identity behind EngineCode / EngineSecret headers, or 320001: the engine must exist and be usable, the secret
 * must be one of its active ones, and its issuer must still be an active Administrator of the engine.
 */
export async function authenticateSecret(db: Db, engineCode: string | undefined, secret: string | undefined, caches?: ContextCaches): Promise<NodeContext> {
  if (!engineCode || !secret || engineCode.length > 64 || secret.length > 256) throw new AppError('OpenApiAuthFailed');
  // The engine, the secret, its issuer and their roles in one statement (docs/decisions/0032).
  const read = await readSecretContext(db, engineCode, hashSecret(secret));
  if (read === 'no-engine' || !read.engine) throw new AppError('OpenApiAuthFailed');
  assertEngineUsable(read.engine, 403);
  const found = read.secret;
  if (!found || found.userState !== 'active' || found.authType !== AUTH_TYPE_ADMINISTRATOR) throw new AppError('OpenApiAuthFailed');
  // The use time is a day's figure on the secrets screen: written at most once a minute per secret, not on every call.
  const now = new Date();
  if (!found.lastUsedTime || now.getTime() - found.lastUsedTime.getTime() >= LAST_USED_EVERY_MS) {
    await engineDb(db, engineCode).updateTable('engine_secrets').set({ last_used_time: now }).where('id', '=', found.id).execute();
  }
  const context = caches && { engineCode, userId: found.userId, authType: found.authType, roleIds: found.roleIds, mainDepartmentId: found.mainDepartmentId, nodesVersion: read.nodesVersion, formsVersion: read.formsVersion, caches };
  return { db, engineCode, userId: found.userId, authType: found.authType, context };
}

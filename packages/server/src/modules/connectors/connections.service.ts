import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { sealSecrets } from '../notification/channels/secret-box.ts';
import { recordOperation, type OperationActor } from '../audit/oplog.ts';
import type { ConnectionRow } from './connection-auth.ts';

// Connection configs as the admin console manages them (docs/decisions/0120): secrets only as a flag, every change in
// the operation log, in the caller's transaction.

export type Actor = OperationActor & { userId: string };

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

export function presentConnection(row: ConnectionRow, connectorCount: number): contracts.ConnectionDto {
  return {
    code: row.code,
    name: row.name,
    kind: 'http',
    baseUrl: row.base_url,
    authKind: row.auth_kind,
    auth: contracts.ConnectionAuthSettings.parse(row.auth ?? {}),
    hasSecret: !!row.secrets,
    healthPath: row.health_path,
    status: row.status,
    failureCount: row.failure_count,
    lastError: row.last_error,
    lastCheckedTime: iso(row.last_checked_time),
    connectorCount,
    modifiedTime: iso(row.modified_time)!,
  };
}

async function countsOf(edb: EngineExecutor): Promise<Map<string, number>> {
  const rows = await edb.selectFrom('connectors').select(['connection_code', (e) => e.fn.countAll<number>().as('n')]).groupBy('connection_code').execute();
  return new Map(rows.map((r) => [r.connection_code, Number(r.n)]));
}

export async function listConnections(edb: EngineExecutor): Promise<contracts.ConnectionListResult> {
  const rows = await edb.selectFrom('connections').selectAll().orderBy('created_time').orderBy('code').execute();
  const counts = await countsOf(edb);
  return { items: rows.map((row) => presentConnection(row, counts.get(row.code) ?? 0)) };
}

export async function getConnectionRowOrThrow(edb: EngineExecutor, code: string): Promise<ConnectionRow> {
  const row = await edb.selectFrom('connections').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw new AppError('ConnectionNotFound', { detail: { code } });
  return row;
}

export async function getConnection(edb: EngineExecutor, code: string): Promise<contracts.ConnectionDto> {
  const row = await getConnectionRowOrThrow(edb, code);
  return presentConnection(row, (await countsOf(edb)).get(code) ?? 0);
}

/** The settings that matter to the kind only: another kind's leftovers are not kept. */
function authFor(kind: contracts.ConnectionAuthKind, auth: contracts.ConnectionAuthSettings): Partial<contracts.ConnectionAuthSettings> {
  if (kind === 'basic') return { username: auth.username };
  if (kind === 'apiKey') return { apiKeyName: auth.apiKeyName, apiKeyIn: auth.apiKeyIn };
  if (kind === 'oauth2') return { tokenUrl: auth.tokenUrl, clientId: auth.clientId, scope: auth.scope };
  if (kind === 'hmac') return { signatureHeader: auth.signatureHeader };
  return {};
}

function requiredProblems(body: contracts.ConnectionSaveBody, hasSecret: boolean): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const needsSecret = body.authKind !== 'none';
  if (needsSecret && !body.secret && !hasSecret) problems.push({ path: 'secret', message: '请填写密钥' });
  if (body.authKind === 'basic' && !body.auth.username) problems.push({ path: 'auth.username', message: '请填写用户名' });
  if (body.authKind === 'apiKey' && !body.auth.apiKeyName) problems.push({ path: 'auth.apiKeyName', message: '请填写 API Key 的参数名' });
  if (body.authKind === 'oauth2' && !body.auth.tokenUrl) problems.push({ path: 'auth.tokenUrl', message: '请填写令牌地址' });
  if (body.authKind === 'oauth2' && !body.auth.clientId) problems.push({ path: 'auth.clientId', message: '请填写 Client ID' });
  return problems;
}

/** Creates or changes a connection; a secret left out keeps the stored one (unless the kind needs none). */
export async function saveConnection(edb: EngineExecutor, actor: Actor, body: contracts.ConnectionSaveBody): Promise<contracts.ConnectionDto> {
  const existing = body.originalCode ? await getConnectionRowOrThrow(edb, body.originalCode) : undefined;
  const problems = requiredProblems(body, !!existing?.secrets && existing.auth_kind === body.authKind);
  if (problems.length) throw new AppError('ParameterVerificationFailed', { detail: { issues: problems } });
  if (body.code !== existing?.code) {
    const taken = await edb.selectFrom('connections').select('code').where('code', '=', body.code).executeTakeFirst();
    if (taken) throw new AppError('ConnectionCodeTaken', { detail: { code: body.code } });
  }
  const secrets = body.authKind === 'none' ? null : body.secret ? sealSecrets({ secret: body.secret }) : (existing?.secrets ?? null);
  const values = {
    code: body.code,
    name: body.name,
    base_url: body.baseUrl,
    auth_kind: body.authKind,
    auth: JSON.stringify(authFor(body.authKind, body.auth)),
    secrets,
    health_path: body.healthPath,
    modified_time: new Date(),
  };
  const row = existing
    ? await edb.updateTable('connections').set(values).where('code', '=', existing.code).returningAll().executeTakeFirstOrThrow()
    : await edb.insertInto('connections').values({ ...values, created_by: actor.userId }).returningAll().executeTakeFirstOrThrow();
  const after = await getConnection(edb, row.code);
  const before = existing ? presentConnection(existing, after.connectorCount) : undefined;
  await recordOperation(edb, actor, { kind: 'connection', action: existing ? 'update' : 'create', objectId: row.code, objectName: row.name, before, after: { ...after, ...(body.secret ? { secret: body.secret } : {}) } });
  return after;
}

export async function setConnectionEnabled(edb: EngineExecutor, actor: Actor, code: string, enabled: boolean): Promise<contracts.ConnectionDto> {
  const row = await getConnectionRowOrThrow(edb, code);
  // Enabled again it starts normal: the next check or call says otherwise.
  await edb.updateTable('connections').set({ status: enabled ? 'normal' : 'disabled', failure_count: 0, last_error: null, modified_time: new Date() }).where('code', '=', code).execute();
  const after = await getConnection(edb, code);
  await recordOperation(edb, actor, { kind: 'connection', action: enabled ? 'enable' : 'disable', objectId: code, objectName: row.name, before: { status: row.status }, after: { status: after.status } });
  return after;
}

export async function removeConnection(edb: EngineExecutor, actor: Actor, code: string): Promise<{ code: string }> {
  const row = await getConnectionRowOrThrow(edb, code);
  const count = (await countsOf(edb)).get(code) ?? 0;
  if (count) throw new AppError('ConnectionInUse', { detail: { name: row.name, count } });
  await edb.deleteFrom('connections').where('code', '=', code).execute();
  await recordOperation(edb, actor, { kind: 'connection', action: 'remove', objectId: code, objectName: row.name, before: presentConnection(row, 0) });
  return { code };
}

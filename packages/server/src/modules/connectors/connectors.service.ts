import { contracts } from '@tritium/shared';
import type { Selectable } from 'kysely';
import type { ConnectorTable } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { recordOperation } from '../audit/oplog.ts';
import { getConnectionRowOrThrow, type Actor } from './connections.service.ts';

// Connectors: HTTP actions over a connection (docs/decisions/0120), managed with their connection in the console.

export type ConnectorRow = Selectable<ConnectorTable>;

function present(row: ConnectorRow & { connection_name: string }): contracts.ConnectorDto {
  return {
    code: row.code,
    name: row.name,
    connectionCode: row.connection_code,
    connectionName: row.connection_name,
    method: row.method as contracts.ConnectorDto['method'],
    path: row.path,
    params: row.params,
    outputs: row.outputs,
    modifiedTime: new Date(row.modified_time).toISOString(),
  };
}

function selectConnectors(edb: EngineExecutor) {
  return edb.selectFrom('connectors as c').innerJoin('connections as n', 'n.code', 'c.connection_code').selectAll('c').select('n.name as connection_name');
}

export async function listConnectors(edb: EngineExecutor, connectionCode?: string): Promise<contracts.ConnectorListResult> {
  let query = selectConnectors(edb).orderBy('c.created_time').orderBy('c.code');
  if (connectionCode) query = query.where('c.connection_code', '=', connectionCode);
  return { items: (await query.execute()).map(present) };
}

export async function getConnectorRowOrThrow(edb: EngineExecutor, code: string): Promise<ConnectorRow & { connection_name: string }> {
  const row = await selectConnectors(edb).where('c.code', '=', code).executeTakeFirst();
  if (!row) throw new AppError('ConnectorNotFound', { detail: { code } });
  return row;
}

/** Names the form designer offers the advanced button. */
export async function connectorChoices(edb: EngineExecutor): Promise<contracts.ConnectorChoicesResult> {
  const rows = await selectConnectors(edb).orderBy('n.name').orderBy('c.name').execute();
  return { items: rows.map((r) => ({ code: r.code, name: r.name, connectionName: r.connection_name, outputs: r.outputs.map((o) => o.name) })) };
}

export async function saveConnector(edb: EngineExecutor, actor: Actor, body: contracts.ConnectorSaveBody): Promise<contracts.ConnectorDto> {
  const existing = body.originalCode ? await getConnectorRowOrThrow(edb, body.originalCode) : undefined;
  await getConnectionRowOrThrow(edb, body.connectionCode);
  const names = body.outputs.map((o) => o.name);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated) throw new AppError('ParameterVerificationFailed', { detail: { issues: [{ path: 'outputs', message: `输出名“${repeated}”重复` }] } });
  if (body.code !== existing?.code) {
    const taken = await edb.selectFrom('connectors').select('code').where('code', '=', body.code).executeTakeFirst();
    if (taken) throw new AppError('ConnectorCodeTaken', { detail: { code: body.code } });
  }
  const values = {
    code: body.code,
    name: body.name,
    connection_code: body.connectionCode,
    method: body.method,
    path: body.path,
    params: JSON.stringify(body.params),
    outputs: JSON.stringify(body.outputs),
    modified_time: new Date(),
  };
  if (existing) await edb.updateTable('connectors').set(values).where('code', '=', existing.code).execute();
  else await edb.insertInto('connectors').values(values).execute();
  const after = present(await getConnectorRowOrThrow(edb, body.code));
  await recordOperation(edb, actor, { kind: 'connection', action: existing ? 'update' : 'create', objectId: body.code, objectName: body.name, before: existing ? present(existing) : undefined, after });
  return after;
}

export async function removeConnector(edb: EngineExecutor, actor: Actor, code: string): Promise<{ code: string }> {
  const row = await getConnectorRowOrThrow(edb, code);
  await edb.deleteFrom('connectors').where('code', '=', code).execute();
  await recordOperation(edb, actor, { kind: 'connection', action: 'remove', objectId: code, objectName: row.name, before: present(row) });
  return { code };
}

import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { ScheduledSweep } from '../../scheduler/scheduler.ts';
import { sendOutside, type OutsideDeps } from './connector-client.ts';
import { fillTemplate, fillValue, readOutputs } from './connector-mapping.ts';
import { getConnection, getConnectionRowOrThrow } from './connections.service.ts';
import { getConnectorRowOrThrow } from './connectors.service.ts';
import { loadInstalledPlugin, requireInstalledPlugin } from '../plugin-instances/plugin-instances.ts';

// Running connectors and health checks (docs/decisions/0120): every user of a connector (the advanced button,
// scripts, automations, the console) calls `callConnector`, which fills the parameters, sends through the one client
// and maps the answer to the connector's outputs.

/** Runs a connector with the values its `{{Name}}` places read; answers its outputs by name. */
export async function callConnector(
  edb: EngineExecutor,
  engineCode: string,
  code: string,
  values: Record<string, unknown>,
  deps: OutsideDeps,
  source: contracts.ConnectorCallDto['source'] = 'console',
): Promise<contracts.ConnectorRunResult> {
  // Every user of connectors (button, script, automation, console, plugin) needs the connector plugin (0123).
  await requireInstalledPlugin(edb, 'connector');
  const connector = await getConnectorRowOrThrow(edb, code);
  const connection = await getConnectionRowOrThrow(edb, connector.connection_code);
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const param of connector.params) {
    if (param.in === 'query') query[param.name] = fillTemplate(param.value, values);
    else if (param.in === 'header') headers[param.name.toLowerCase()] = fillTemplate(param.value, values);
    else body[param.name] = fillValue(param.value, values);
  }
  const hasBody = connector.method !== 'GET' && connector.method !== 'DELETE';
  const path = fillTemplate(connector.path, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, encodeURIComponent(v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))])));
  const answer = await sendOutside(edb, engineCode, connection, { source, connectorCode: code, method: connector.method, path, query, headers, body: hasBody ? body : undefined }, deps);
  return { outputs: readOutputs(answer.json, connector.outputs), httpStatus: answer.httpStatus, durationMs: answer.durationMs };
}

/** The health check: a GET of the connection's health path; its outcome sets the status (a disabled one stays so). */
export async function checkConnection(edb: EngineExecutor, engineCode: string, code: string, deps: OutsideDeps): Promise<contracts.ConnectionTestResult> {
  const row = await getConnectionRowOrThrow(edb, code);
  const started = Date.now();
  let outcome: { ok: boolean; httpStatus: number | null; error: string | null };
  try {
    const answer = await sendOutside(edb, engineCode, row, { source: 'health', method: 'GET', path: row.health_path }, deps);
    outcome = { ok: true, httpStatus: answer.httpStatus, error: null };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const status = (error.detail as { status?: number } | undefined)?.status;
    outcome = { ok: false, httpStatus: typeof status === 'number' ? status : null, error: error.message };
  }
  return { ...outcome, durationMs: Date.now() - started, connection: await getConnection(edb, code) };
}

export async function listCalls(edb: EngineExecutor, query: { connectionCode?: string; pageIndex: number; pageSize: number }): Promise<contracts.ConnectorLogResult> {
  let base = edb.selectFrom('connector_calls');
  if (query.connectionCode) base = base.where('connection_code', '=', query.connectionCode);
  const total = await base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').offset(query.pageIndex * query.pageSize).limit(query.pageSize).execute();
  return {
    total: Number(total.n),
    items: rows.map((r) => ({
      id: String(r.id), time: new Date(r.at).toISOString(), connectionCode: r.connection_code, connectorCode: r.connector_code, source: r.source,
      method: r.method, url: r.url, httpStatus: r.http_status, ok: r.ok, durationMs: r.duration_ms, error: r.error,
    })),
  };
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The scheduler's side: every few minutes each enabled connection of each engine is checked, and once a day the
 * delivery log's rows older than 30 days go.
 */
export function connectionHealthSweep(deps: OutsideDeps & { everyMs?: number; retentionDays?: number }): ScheduledSweep {
  const everyMs = deps.everyMs ?? 5 * MINUTE_MS;
  let lastCheck = -Infinity;
  let lastClean = -Infinity;
  return {
    async run(db: Db, now: Date) {
      if (now.getTime() - lastCheck < everyMs) return 0;
      lastCheck = now.getTime();
      const clean = now.getTime() - lastClean >= DAY_MS;
      if (clean) lastClean = now.getTime();
      const cutoff = new Date(now.getTime() - (deps.retentionDays ?? contracts.CONNECTOR_LOG_RETENTION_DAYS) * DAY_MS);
      const engines = await db.selectFrom('platform.engines').select('engine_code').where('state', '=', 'normal').execute();
      let handled = 0;
      for (const { engine_code } of engines) {
        const edb = engineDb(db, engine_code);
        if (clean) await edb.deleteFrom('connector_calls').where('at', '<', cutoff).execute();
        // An engine without the connector plugin keeps its connections as they are, unchecked.
        if (!(await loadInstalledPlugin(edb, 'connector'))) continue;
        const codes = await edb.selectFrom('connections').select('code').where('status', '!=', 'disabled').execute();
        for (const { code } of codes) {
          await checkConnection(edb, engine_code, code, deps);
          handled++;
        }
      }
      return handled;
    },
  };
}

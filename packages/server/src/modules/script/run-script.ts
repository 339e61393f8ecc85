import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import { engineSchemaName } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { compileScript, ScriptCompileError, type ScriptLanguage } from './compile.ts';
import { DEFAULT_LIMITS, runInSandbox, type SandboxLimits, type SandboxStatus } from './sandbox.ts';
import { callScriptApi, type ScriptApiSession } from './script-api.ts';
import { insertBizLogs, type BizLogPart, type NewBizLog } from './bizlog.repo.ts';

// One run of a handler of a form's or an app's script (docs/decisions/0118), in the caller's transaction: compiled
// (cached), run in a fresh sandbox with ctx, its log lines and outcome written to the business log.

export type ScriptLogLevel = 'info' | 'warn' | 'error';

export interface ScriptLogLine {
  level: ScriptLogLevel;
  message: string;
  /** The script's own line, when known. */
  line: number | null;
}

/** What a handler is given besides the API (each field only where the event has it). */
export interface ScriptInput {
  record?: Record<string, unknown>;
  children?: Record<string, Record<string, unknown>[]>;
  actionName?: string;
  objectId?: string | null;
  isNew?: boolean;
  /** An action's parameters (`actions[name](ctx, params)`). */
  params?: unknown;
  /** A list action's records. */
  objectIds?: string[];
}

export interface RunScriptOptions {
  /** The caller's transaction in the engine's schema: the script's reads and writes go through it. */
  edb: EngineExecutor;
  /** The caller. `ctx.db` must be the database, not the transaction: the business log is written beside it. */
  ctx: NodeContext;
  appCode: string;
  /** The form whose script runs; null for an app's custom APIs. */
  schemaCode: string | null;
  part: BizLogPart;
  source: string;
  language: ScriptLanguage;
  /** 'onSubmit', 'onLoad', 'actions.createOrder', … */
  handler: string;
  input: ScriptInput;
  limits?: Partial<Pick<SandboxLimits, 'cpuMs' | 'memoryBytes'>>;
  /** Nothing is logged and no notification sent (the caller rolls the transaction back). */
  dryRun?: boolean;
}

export interface ScriptOutcome {
  status: SandboxStatus;
  /** False when the script does not export the handler (nothing ran: status ok). */
  handled: boolean;
  value: unknown;
  /** ctx.record as the handler left it (the input's record when nothing ran or the run failed). */
  record: Record<string, unknown>;
  children: Record<string, Record<string, unknown>[]>;
  /** What ctx.respond sent (null when it did not). */
  responded: unknown;
  /** ctx.refuse(message) */
  refusal?: string;
  error?: { message: string; line: number | null };
  logs: ScriptLogLine[];
  durationMs: number;
  limits: { cpuMs: number; memoryBytes: number };
  /** Stored files the script's writes dropped: delete their bytes after the transaction commits. */
  dropped: string[];
  /** The business log's rows, written beside the caller's transaction (so a rolled back save keeps them). */
  logsWritten: Promise<Error | null>;
}

/** Log lines kept per run (more are counted in the summary), and characters per line. */
export const LOG_LINES_MAX = 200;
export const LOG_MESSAGE_MAX = 2000;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const cut = (text: string) => (text.length > LOG_MESSAGE_MAX ? `${text.slice(0, LOG_MESSAGE_MAX - 1)}…` : text);

/** What ctx shows of the run: engine, user, app, form, request. */
async function infoOf(options: RunScriptOptions) {
  const { ctx } = options;
  const { rows } = await sql<{ engine_name: string | null; user_name: string | null; department_id: string | null }>`
    select (select engine_name from platform.engines where engine_code = ${ctx.engineCode}) as engine_name, u.name as user_name, u.main_department_id as department_id
    from (select 1) one left join ${sql.table(`${engineSchemaName(ctx.engineCode)}.org_users`)} u on u.id = ${ctx.userId}`.execute(options.edb);
  const row = rows[0];
  return {
    engine: { code: ctx.engineCode, name: row?.engine_name ?? '' },
    user: { id: ctx.userId, name: row?.user_name ?? '', departmentId: row?.department_id ?? null },
    appCode: options.appCode,
    schemaCode: options.schemaCode,
    requestId: ctx.origin?.requestId ?? null,
  };
}

export async function runScript(options: RunScriptOptions): Promise<ScriptOutcome> {
  const started = performance.now();
  const limits = { cpuMs: options.limits?.cpuMs ?? DEFAULT_LIMITS.cpuMs, memoryBytes: options.limits?.memoryBytes ?? DEFAULT_LIMITS.memoryBytes };
  const logs: ScriptLogLine[] = [];
  let dropped = 0;
  let refusal: string | undefined;
  let responded: unknown = null;
  const session: ScriptApiSession = { edb: options.edb, ctx: { ...options.ctx, db: options.edb as unknown as Db }, dryRun: !!options.dryRun, dropped: [] };
  const base = { record: options.input.record ?? {}, children: options.input.children ?? {}, value: null, handled: false, responded: null, logs, limits, dropped: session.dropped };

  let compiled;
  try {
    compiled = await compileScript(options.source, options.language);
  } catch (error) {
    if (!(error instanceof ScriptCompileError)) throw error;
    return finish(options, started, { ...base, status: 'error', error: { message: error.message, line: error.line } }, 0);
  }
  const host = {
    immediate(name: string, args: unknown): boolean {
      const a = isObject(args) ? args : {};
      if (name === 'log') {
        if (logs.length >= LOG_LINES_MAX) dropped++;
        else logs.push({ level: a.level === 'warn' || a.level === 'error' ? a.level : 'info', message: cut(String(a.message ?? '')), line: typeof a.line === 'number' ? compiled.lineOf(a.line) : null });
        return true;
      }
      if (name === 'refuse') refusal ??= cut(String(a.message ?? '')) || '操作被脚本拒绝';
      else if (name === 'respond') responded = a.data ?? null;
      else return false;
      return true;
    },
    call: (name: string, args: unknown) => callScriptApi(session, name, args),
  };
  const run = await runInSandbox({ js: compiled.js, entry: options.handler, input: options.input, info: await infoOf(options), host, limits, lineOf: compiled.lineOf });
  if (run.hostError !== undefined) throw run.hostError;
  // A refusal stands even when the script caught what ctx.refuse threw.
  const status: SandboxStatus = refusal !== undefined && run.status !== 'timeout' && run.status !== 'memory' ? 'refused' : run.status;
  const outcome = {
    ...base,
    status,
    handled: run.found,
    value: run.value,
    responded,
    ...(status === 'ok' && run.found ? { record: isObject(run.record) ? run.record : base.record, children: isObject(run.children) ? (run.children as ScriptOutcome['children']) : base.children } : {}),
    ...(status === 'refused' ? { refusal: refusal ?? run.message ?? '' } : {}),
    ...(status !== 'ok' && status !== 'refused' ? { error: { message: run.message ?? '', line: run.line } } : {}),
  };
  return finish(options, started, outcome, dropped);
}

function finish(options: RunScriptOptions, started: number, outcome: Omit<ScriptOutcome, 'durationMs' | 'logsWritten'>, droppedLines: number): ScriptOutcome {
  const durationMs = Math.round(performance.now() - started);
  const logsWritten = options.dryRun ? Promise.resolve(null) : writeRunLog(options, { ...outcome, durationMs }, droppedLines);
  return { ...outcome, durationMs, logsWritten };
}

const SUMMARY: Record<SandboxStatus, string> = { ok: '运行完成', refused: '已拒绝', error: '运行出错', timeout: '运行超时', memory: '内存超限' };

/** The rows of one run: its lines, then the summary. Written through the database, beside the caller's transaction. */
function writeRunLog(options: RunScriptOptions, outcome: Omit<ScriptOutcome, 'logsWritten'>, droppedLines: number): Promise<Error | null> {
  const at = new Date();
  const common = { app_code: options.appCode, schema_code: options.schemaCode, part: options.part, handler: options.handler, request_id: options.ctx.origin?.requestId ?? null, user_id: options.ctx.userId };
  const detail = outcome.refusal ?? outcome.error?.message;
  const more = droppedLines ? `；另有 ${droppedLines} 行日志未记录（每次最多 ${LOG_LINES_MAX} 行）` : '';
  const summary: NewBizLog = {
    ...common,
    at,
    level: outcome.status === 'ok' ? 'info' : outcome.status === 'refused' ? 'warn' : 'error',
    message: cut(`${outcome.handled || outcome.status !== 'ok' ? SUMMARY[outcome.status] : '未定义该处理函数，未运行'}${detail ? `：${detail}` : ''}${more}`),
    line: outcome.error?.line ?? null,
    duration_ms: outcome.durationMs,
  };
  const rows: NewBizLog[] = [...outcome.logs.map((l) => ({ ...common, at, level: l.level, message: l.message, line: l.line, duration_ms: null })), summary];
  return insertBizLogs(options.ctx.db, options.ctx.engineCode, rows).then(
    () => null,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
}

/** Throws the catalogue's error for a run that did not end well: refused (the script's message), error, time-out, memory. */
export function assertScriptOk(outcome: Pick<ScriptOutcome, 'status' | 'refusal' | 'error' | 'limits'>): void {
  switch (outcome.status) {
    case 'ok':
      return;
    case 'refused':
      throw new AppError('ScriptRefused', { detail: { message: outcome.refusal ?? '' } });
    case 'timeout':
      throw new AppError('ScriptTimeout', { detail: { limitMs: outcome.limits.cpuMs } });
    case 'memory':
      throw new AppError('ScriptMemoryLimit', { detail: { limitMb: Math.round(outcome.limits.memoryBytes / 1024 / 1024) } });
    default:
      throw new AppError('ScriptError', { detail: { message: outcome.error?.message ?? '', line: outcome.error?.line ?? null } });
  }
}

import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import { findEngine } from '../engine/engine.repo.ts';
import { loadProvider, type EngineExecutor } from './provider-settings.ts';
import { applyPlan, planSync, summarise, type SyncSummary } from './directory-sync.ts';
import { ChatPlatformError, type CallbackKeys, type CallbackPush, type ChatProviderName } from './providers/chat-provider.ts';
import { chatProvider } from './providers/registry.ts';

// Incremental directory sync from the platforms' change pushes (issue 25, docs/decisions/0077). The platform POSTs
// signed, encrypted events to the engine's callback URL; each one that names people or departments is recorded
// (directory_events) and an incremental sync job is queued. The job reads again only what the recorded events name
// and applies the differences with the full sync's own plan and writes (0053): created, changed, moved, left;
// people who exist only locally are never touched.

/** The callback address of an engine for a platform's change pushes (public: the platform cannot sign in). */
export const directoryCallbackPath = (provider: ChatProviderName, engineCode: string) => `/v1/sysintergration/directory/callback/${provider}/${engineCode}`;

export async function callbackKeys(edb: EngineExecutor, provider: ChatProviderName): Promise<CallbackKeys | null> {
  const row = await loadProvider(edb, provider);
  const token = row?.secrets.callbackToken;
  const aesKey = row?.secrets.callbackAesKey;
  return token && aesKey ? { token, aesKey } : null;
}

export async function pendingEvents(edb: EngineExecutor, provider: ChatProviderName): Promise<number> {
  const row = await edb.selectFrom('directory_events').select((e) => e.fn.countAll<string>().as('n')).where('provider', '=', provider).where('applied_time', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A push of the platform: checked and opened as the platform signs it, its change recorded and an incremental sync
 * queued (unless one is already waiting). Answers what the platform expects back. A push that does not check out
 * changes nothing (ChatCallbackRejected).
 */
export async function receiveChange(db: Db, engineCode: string, provider: ChatProviderName, push: CallbackPush): Promise<unknown> {
  const callbacks = chatProvider(provider).callbacks;
  if (!callbacks) throw new AppError('IntegrationNotConfigured');
  if (!(await findEngine(db, engineCode))) throw new AppError('EngineNotExist');
  const edb = engineDb(db, engineCode);
  const row = await loadProvider(edb, provider);
  const keys = await callbackKeys(edb, provider);
  if (!row || !keys) throw new AppError('IntegrationNotConfigured');
  const settings = { baseUrl: '', appKey: String(row.settings.appKey ?? ''), appSecret: '', corpId: String(row.settings.corpId ?? ''), agentId: '', http: fetch };
  const opened = callbacks.open(settings, keys, push);
  if (!opened) throw new AppError('ChatCallbackRejected');
  const change = opened.change;
  if (change && change.subjects.length) {
    await edb.insertInto('directory_events').values({ provider, event_type: change.type, subject_kind: change.kind, subjects: JSON.stringify(change.subjects) }).execute();
    const waiting = await db
      .selectFrom('platform.jobs')
      .select('id')
      .where('engine_code', '=', engineCode)
      .where('kind', '=', DIRECTORY_SYNC_JOB)
      .where('state', '=', 'Waiting')
      .where(sql<string>`payload->>'provider'`, '=', provider)
      .where(sql<string>`payload->>'mode'`, '=', 'events')
      .executeTakeFirst();
    if (!waiting) await enqueueJob(db, { engineCode, kind: DIRECTORY_SYNC_JOB, payload: { provider, mode: 'events' } });
  }
  return opened.answer ?? callbacks.reply(settings, keys);
}

export const DIRECTORY_SYNC_JOB = 'integration.directory-sync';

/**
 * Applies the recorded events: claims them (so that a second run takes others), reads again the departments and
 * people they name, plans against only those and writes. On failure the events are released for the next run.
 */
export async function runEventSync(
  db: Db,
  engineCode: string,
  provider: ChatProviderName,
  settings: Parameters<NonNullable<ReturnType<typeof chatProvider>['directoryPart']>>[0],
  onPlatformError: (error: ChatPlatformError) => unknown,
): Promise<SyncSummary & { events: number }> {
  const adapter = chatProvider(provider);
  if (!adapter.directoryPart) throw new AppError('IntegrationNotConfigured');
  const edb = engineDb(db, engineCode);
  const claimed = await edb
    .updateTable('directory_events')
    .set({ applied_time: new Date() })
    .where('provider', '=', provider)
    .where('applied_time', 'is', null)
    .returning(['id', 'subject_kind', 'subjects'])
    .execute();
  try {
    const departments = new Set<string>();
    const users = new Set<string>();
    for (const e of claimed) for (const id of e.subjects) (e.subject_kind === 'user' ? users : departments).add(id);
    let part;
    try {
      part = await adapter.directoryPart(settings, { departments: [...departments], users: [...users] });
    } catch (error) {
      throw error instanceof ChatPlatformError ? onPlatformError(error) : error;
    }
    const engine = (await findEngine(db, engineCode))!;
    const plan = await planSync(edb, engine.company_id, provider, part, { goneUsers: part.goneUsers });
    await applyPlan(db, engineCode, provider, plan);
    return { ...summarise(plan), events: claimed.length };
  } catch (error) {
    if (claimed.length) await edb.updateTable('directory_events').set({ applied_time: null }).where('id', 'in', claimed.map((e) => e.id)).execute();
    throw error;
  }
}

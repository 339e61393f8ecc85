import { sql } from 'kysely';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { JobHandler } from '../../jobs/job-registry.ts';
import type { LoginResultData, SignInDeps } from '../auth/sign-in.service.ts';
import { findEngine } from '../engine/engine.repo.ts';
import { loadProvider, saveProvider, type EngineExecutor } from './provider-settings.ts';
import { signInWithIdentity, type VerifiedIdentity } from './identity-sign-in.ts';
import { mobileBindingRequired } from './mobile-binding.ts';
import { applyPlan, planSync, summarise, type SyncSummary } from './directory-sync.ts';
import { ChatPlatformError, type AuthCodeKind, type ChatProviderName, type ChatProviderSettings } from './providers/chat-provider.ts';
import { chatProvider } from './providers/registry.ts';
import { callbackKeys, DIRECTORY_SYNC_JOB, pendingEvents, runEventSync } from './directory-events.ts';
import type { OperationActor } from '../audit/oplog.ts';

// Chat-platform sign-in and directory sync over the one provider interface (issue 25, docs/decisions/0052, 0053):
// settings per engine and platform in sign_in_providers (AppSecret sealed), the platform's errors answered with the
// catalogue's chat-platform codes (calls.md §8: 2007xx scan, 2008xx workplace, 2009xx setting, 2070xx app).

export { DIRECTORY_SYNC_JOB } from './directory-events.ts';

/** Sign-in deps with the fetch the platform adapters speak through (the outbound fetch of app.ts). */
export type ChatDeps = SignInDeps & { http: typeof fetch };

interface StoredChatSettings extends Omit<ChatProviderSettings, 'http'> {
  enabled: boolean;
  hasAppSecret: boolean;
  /** WeChat: which of its scans signs in (decision 0097). */
  wechatMethod: contracts.WechatScanMethod;
}

const wechatMethodOf = (settings: Record<string, unknown>): contracts.WechatScanMethod => (settings.wechatMethod === 'officialAccount' ? 'officialAccount' : 'website');

/** An engine's app of a platform as saved (AppSecret opened); null when none is. Also read by modules/chat-apps. */
export async function loadChatSettings(edb: EngineExecutor, provider: ChatProviderName): Promise<StoredChatSettings | null> {
  const row = await loadProvider(edb, provider);
  if (!row) return null;
  const s = row.settings;
  return {
    enabled: row.enabled,
    baseUrl: String(s.baseUrl || '') || chatProvider(provider).defaultBaseUrl,
    appKey: String(s.appKey ?? ''),
    appSecret: row.secrets.appSecret ?? '',
    hasAppSecret: !!row.secrets.appSecret,
    corpId: String(s.corpId ?? ''),
    agentId: String(s.agentId ?? ''),
    wechatMethod: wechatMethodOf(s),
  };
}

/**
 * The Administrator's view; `callbackUrl` is the engine's address for the platform's pushes: change events, or for
 * WeChat the official account's scans (decision 0097).
 */
export async function chatSettingView(edb: EngineExecutor, provider: ChatProviderName, callbackUrl: string): Promise<contracts.ChatSettingDto> {
  const row = await loadProvider(edb, provider);
  const pushes = !!chatProvider(provider).callbacks || provider === 'wechat';
  const s = row?.settings ?? {};
  return {
    provider,
    configured: !!row,
    enabled: row?.enabled ?? false,
    baseUrl: String(s.baseUrl ?? ''),
    defaultBaseUrl: chatProvider(provider).defaultBaseUrl,
    appKey: String(s.appKey ?? ''),
    hasAppSecret: !!row?.secrets.appSecret,
    corpId: String(s.corpId ?? ''),
    agentId: String(s.agentId ?? ''),
    // The official account's Token is enough for plain-mode pushes; its EncodingAESKey is for safe mode only.
    hasCallbackKeys: provider === 'wechat' ? !!row?.secrets.callbackToken : pushes && !!(await callbackKeys(edb, provider)),
    callbackUrl: pushes ? callbackUrl : '',
    pendingEvents: chatProvider(provider).callbacks && row ? await pendingEvents(edb, provider) : 0,
    hasCallbackAesKey: !!row?.secrets.callbackAesKey,
    wechatMethod: wechatMethodOf(s),
  };
}

export async function saveChatSettings(edb: EngineExecutor, actor: OperationActor & { userId: string }, body: contracts.ChatSettingSaveBody, callbackUrl: string): Promise<contracts.ChatSettingDto> {
  const { provider, enabled, appSecret, callbackToken, callbackAesKey, ...settings } = body;
  await saveProvider(edb, provider, actor, { enabled, settings: { ...settings, baseUrl: settings.baseUrl.replace(/\/+$/, '') }, secrets: { appSecret, callbackToken, callbackAesKey } });
  return chatSettingView(edb, provider, callbackUrl);
}

export async function usableSettings(db: Db, http: typeof fetch, engineCode: string, provider: ChatProviderName): Promise<StoredChatSettings & ChatProviderSettings> {
  const engine = await findEngine(db, engineCode);
  if (!engine) throw new AppError('EngineNotExist');
  const settings = await loadChatSettings(engineDb(db, engineCode), provider);
  if (!settings?.enabled || !settings.appKey || !settings.appSecret) throw new AppError('IntegrationNotConfigured');
  return { ...settings, http };
}

/** The catalogue's answer for a platform failure: which code depends on what failed and how the person came. */
export function platformError(error: unknown, kind: AuthCodeKind | 'sync'): unknown {
  if (!(error instanceof ChatPlatformError)) return error;
  const detail = { platformCode: error.platformCode, reason: error.message.slice(0, 300) };
  if (error.kind === 'credentials') return new AppError('AppInfoError', { detail });
  if (error.kind === 'unreachable') return new AppError('ChatPlatformUnreachable', { detail });
  // The platform knows the person, but not as a member of the organisation the app belongs to.
  if (error.kind === 'not-member') return new AppError('UserNotExist', { detail });
  if (kind === 'scan') return new AppError('ChatScanFailed', { detail });
  if (kind === 'sync') return new AppError('ChatPlatformUnreachable', { detail });
  return new AppError('ChatOaFailed', { detail });
}

/** Sign-in by a temporary auth code of the platform: the engine's user bound to (or with the mobile of) that person. */
export async function chatLogin(deps: ChatDeps, provider: ChatProviderName, kind: AuthCodeKind, engineCode: string, code: string, redirectUri?: string): Promise<LoginResultData> {
  const settings = await usableSettings(deps.db, deps.http, engineCode, provider);
  let person;
  try {
    person = await chatProvider(provider).userByAuthCode(settings, code, kind, redirectUri);
  } catch (error) {
    throw platformError(error, kind);
  }
  if (!person.active) throw new AppError('UserDisabled');
  return signInPlatformPerson(deps, engineCode, { provider, subject: person.id, name: person.name, mobile: person.mobile, email: person.email, employeeNo: person.employeeNo });
}

/** The engine's user bound to (or with the mobile of) a person a chat platform vouched for. */
export async function signInPlatformPerson(deps: ChatDeps, engineCode: string, identity: VerifiedIdentity): Promise<LoginResultData> {
  try {
    return await signInWithIdentity(deps, engineCode, identity, { matchBy: 'mobile', createUsers: false, unknown: 'UserNotExist' });
  } catch (error) {
    // Not bound and no number to match by: the person may prove a number of the engine's user instead (0061).
    if (error instanceof AppError && error.errorName === 'UserNotExist' && !identity.mobile) throw await mobileBindingRequired(deps, engineCode, identity);
    throw error;
  }
}

async function directoryPlan(db: Db, http: typeof fetch, engineCode: string, provider: ChatProviderName) {
  const settings = await usableSettings(db, http, engineCode, provider);
  const engine = (await findEngine(db, engineCode))!;
  const adapter = chatProvider(provider);
  if (!adapter.directory) throw new AppError('IntegrationNotConfigured');
  let directory;
  try {
    directory = await adapter.directory(settings);
  } catch (error) {
    throw platformError(error, 'sync');
  }
  return planSync(engineDb(db, engineCode), engine.company_id, provider, directory);
}

/** What a sync would change, without changing anything. */
export async function previewSync(db: Db, http: typeof fetch, engineCode: string, provider: ChatProviderName): Promise<SyncSummary> {
  return summarise(await directoryPlan(db, http, engineCode, provider));
}

/**
 * Reads the platform's directory (mode full) or only what the received change events name (mode events) and writes
 * the differences; the summary is the job's result (the sync log).
 */
export async function runSync(db: Db, http: typeof fetch, engineCode: string, provider: ChatProviderName, mode: contracts.DirectorySyncMode = 'full'): Promise<SyncSummary & { durationMs: number; events?: number }> {
  const started = Date.now();
  if (mode === 'events') {
    const settings = await usableSettings(db, http, engineCode, provider);
    const result = await runEventSync(db, engineCode, provider, settings, (error) => platformError(error, 'sync'));
    return { ...result, durationMs: Date.now() - started };
  }
  const plan = await directoryPlan(db, http, engineCode, provider);
  await applyPlan(db, engineCode, provider, plan);
  return { ...summarise(plan), durationMs: Date.now() - started };
}

export function directorySyncHandler(http: typeof fetch): JobHandler {
  return {
    run: async (ctx) => {
      const { provider, mode } = contracts.DirectorySyncBody.parse(ctx.payload);
      await ctx.reportProgress(5, 'reading the directory');
      return runSync(ctx.db, http, ctx.engineCode, provider, mode);
    },
  };
}

/** The sync log: the engine's last sync jobs of the platform, newest first. */
export async function syncLog(db: Db, engineCode: string, provider: ChatProviderName): Promise<contracts.DirectorySyncLog> {
  const rows = await db
    .selectFrom('platform.jobs')
    .select(['id', 'state', 'message', 'created_time', 'finished_time', 'result', 'payload'])
    .where('engine_code', '=', engineCode)
    .where('kind', '=', DIRECTORY_SYNC_JOB)
    .where(sql<string>`payload->>'provider'`, '=', provider)
    .orderBy('created_time', 'desc')
    .limit(20)
    .execute();
  return {
    list: rows.map((r) => ({
      jobId: r.id,
      state: r.state,
      message: r.message,
      createdTime: new Date(r.created_time as Date).toISOString(),
      finishedTime: r.finished_time ? new Date(r.finished_time).toISOString() : null,
      mode: (r.payload as { mode?: contracts.DirectorySyncMode } | null)?.mode ?? 'full',
      result: (r.result as contracts.DirectorySyncLog['list'][number]['result']) ?? null,
    })),
  };
}

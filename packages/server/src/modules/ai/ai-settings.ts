import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Db } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { recordOperation, type OperationActor } from '../audit/oplog.ts';
import { isFeatureOn, setSwitch, switchValues } from '../feature-switch/feature-switch.service.ts';
import { openSecrets, sealSecrets } from '../notification/channels/secret-box.ts';

// The engine's AI provider (docs/decisions/0124): one row, the key sealed with the notification channels' box and
// never answered; the token credit counted in the same row so that a call's check and its count are one row's.

type Row = NonNullable<Awaited<ReturnType<typeof readRow>>>;

const readRow = (edb: EngineExecutor) => edb.selectFrom('ai_settings').selectAll().where('id', '=', 1).executeTakeFirst();

const numberOrNull = (value: string | number | null) => (value === null ? null : Number(value));

export function presentSettings(row: Row | undefined): contracts.AiSettingsDto {
  if (!row) {
    return { configured: false, baseUrl: '', hasKey: false, chatModel: '', visionModel: '', enabled: false, quotaTokens: null, usedTokens: 0, remainingTokens: null, userCallsPerMinute: contracts.AI_BOUNDS.userCallsPerMinute.default, updatedTime: null };
  }
  const quota = numberOrNull(row.quota_tokens);
  const used = Number(row.used_tokens);
  return {
    configured: !!row.api_key,
    baseUrl: row.base_url,
    hasKey: !!row.api_key,
    chatModel: row.chat_model,
    visionModel: row.vision_model,
    enabled: row.enabled,
    quotaTokens: quota,
    usedTokens: used,
    remainingTokens: quota === null ? null : Math.max(0, quota - used),
    userCallsPerMinute: row.user_calls_per_minute,
    updatedTime: new Date(row.updated_time).toISOString(),
  };
}

export async function readAiSettings(edb: EngineExecutor): Promise<contracts.AiSettingsDto> {
  return presentSettings(await readRow(edb));
}

/** Saves the provider; a key left out keeps the stored one; a new credit (or none) starts the count again. */
export async function saveAiSettings(edb: EngineExecutor, actor: OperationActor & { userId: string }, body: contracts.AiSettingsSaveBody): Promise<contracts.AiSettingsDto> {
  const before = await readRow(edb);
  const key = body.apiKey?.trim() ? sealSecrets({ key: body.apiKey.trim() }) : (before?.api_key ?? null);
  if (!key) throw new AppError('ParameterVerificationFailed', { detail: { issues: [{ path: 'apiKey', message: '请填写 API Key' }] } });
  const quotaChanged = !before || numberOrNull(before.quota_tokens) !== body.quotaTokens;
  const values = {
    base_url: body.baseUrl,
    api_key: key,
    chat_model: body.chatModel,
    vision_model: body.visionModel,
    enabled: body.enabled,
    quota_tokens: body.quotaTokens,
    user_calls_per_minute: body.userCallsPerMinute,
    updated_by: actor.userId,
    updated_time: new Date(),
    ...(quotaChanged ? { used_tokens: 0 } : {}),
  };
  await edb
    .insertInto('ai_settings')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
  const masked = (row: Row | undefined) => (row ? { baseUrl: row.base_url, chatModel: row.chat_model, visionModel: row.vision_model, enabled: row.enabled, quotaTokens: numberOrNull(row.quota_tokens), userCallsPerMinute: row.user_calls_per_minute } : null);
  const after = await readRow(edb);
  await recordOperation(edb, actor, {
    kind: 'engineSetting',
    action: before ? 'update' : 'create',
    objectId: 'ai',
    objectName: 'AI 设置',
    before: masked(before),
    after: { ...masked(after), apiKey: body.apiKey?.trim() ? '******' : undefined },
  });
  return presentSettings(after);
}

export interface AiProvider {
  baseUrl: string;
  apiKey: string;
  chatModel: string;
  visionModel: string;
  quotaTokens: number | null;
  usedTokens: number;
  userCallsPerMinute: number;
}

/** The provider a call uses, or the catalogue's reason it cannot (not configured, turned off, credit used up). */
export async function requireProvider(db: Db, edb: EngineExecutor, engineCode: string): Promise<AiProvider> {
  const row = await readRow(edb);
  if (!row?.api_key) throw new AppError('AiNotConfigured');
  if (!row.enabled || !(await isFeatureOn(db, engineCode, 'ai'))) throw new AppError('AiDisabled');
  const opened = openSecrets(row.api_key);
  if (!opened?.key) throw new AppError('AiNotConfigured');
  const quota = numberOrNull(row.quota_tokens);
  const used = Number(row.used_tokens);
  if (quota !== null && used >= quota) throw new AppError('AiQuotaExhausted', { detail: { quotaTokens: quota } });
  return { baseUrl: row.base_url, apiKey: opened.key, chatModel: row.chat_model, visionModel: row.vision_model, quotaTokens: quota, usedTokens: used, userCallsPerMinute: row.user_calls_per_minute };
}

/** Whether AI shows for the caller; administrators are told why not. */
export async function aiStatus(db: Db, edb: EngineExecutor, engineCode: string, isAdmin: boolean): Promise<contracts.AiStatusDto> {
  const row = await readRow(edb);
  const reason = !row?.api_key
    ? 'notConfigured'
    : !row.enabled
      ? 'disabled'
      : !(await isFeatureOn(db, engineCode, 'ai'))
        ? 'switchOff'
        : row.quota_tokens !== null && Number(row.used_tokens) >= Number(row.quota_tokens)
          ? 'quotaExhausted'
          : null;
  return { available: reason === null, reason: isAdmin || reason === null ? reason : 'notConfigured', isAdmin };
}

/** The product's `ai` switch follows the setting (after the save commits: the switch has its own transaction). */
export async function followSwitch(db: Db, engineCode: string, enabled: boolean, actor: OperationActor): Promise<void> {
  const value = enabled ? '1' : '0';
  if ((await switchValues(db, engineCode, ['ai'])).get('ai') !== value) await setSwitch(db, engineCode, 'ai', value, actor);
}

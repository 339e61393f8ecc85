import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { AUTH_TYPE_ADMINISTRATOR } from '../../plugins/auth.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import { definePluginStep } from '../automation/plugin-steps.ts';
import { RetryableStepError, type StepRun } from '../automation/automation-steps.ts';
import { definePluginMethods } from '../plugin-instances/plugin-methods.ts';
import { requireInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { loadChatSettings } from '../integrations/chat-sign-in.ts';
import { ChatPlatformError, type ChatProviderSettings } from '../integrations/providers/chat-provider.ts';
import { chunks, rangeDays, readPunches, type AttendancePlatform, type Punch } from './attendance-sources.ts';

// The automation attendance step (issue 44, docs/decisions/0123 "Chat apps"): the punches of a date range from the
// platform the attendance plugin names, read with the engine's own app of that platform, one record per punch in
// the target form. attendance_punches keeps each punch written (platform, key, form → record), written in the run's
// transaction with the record: a second run over the same days creates nothing new.

type Settings = contracts.AttendanceStepSettings;

const PLATFORM_NAMES: Record<AttendancePlatform, string> = { dingtalk: '钉钉', wxwork: '企业微信' };
/** A fixed range longer than this is a mistake (a year of punches in one run), not a wish. */
const MAX_FIXED_DAYS = 92;

const invalid = (reason: string, reasonEn: string) => new AppError('AttendanceSettingsInvalid', { detail: { reason, reasonEn } });

function parseSettings(settings: Record<string, unknown>): Settings {
  const parsed = contracts.AttendanceStepSettings.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`${issue.path.join('.') || '设置'}：${issue.message}`, `${issue.path.join('.') || 'settings'}: ${issue.message}`);
  }
  const range = parsed.data.range;
  if (range.type === 'fixed') {
    const days = (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 + 1;
    if (!(days >= 1)) throw invalid('结束日期不能早于开始日期', 'the end date is before the start date');
    if (days > MAX_FIXED_DAYS) throw invalid(`日期范围最多 ${MAX_FIXED_DAYS} 天`, `the range is at most ${MAX_FIXED_DAYS} days`);
  }
  return parsed.data;
}

/** The target form's controls fit the mappings: a user control, a date control, text controls for the rest. */
function checkMappings(target: RuntimeForm, mappings: Settings['mappings']): void {
  const field = (code: string) => target.fields.find((f) => f.code === code);
  const need = (code: string | undefined, ok: (f: RuntimeForm['fields'][number]) => boolean, zh: string, en: string) => {
    if (code === undefined) return;
    const f = field(code);
    if (!f) throw invalid(`目标表单没有字段“${code}”`, `the target form has no field ${code}`);
    if (!ok(f)) throw invalid(`字段“${code}”应为${zh}`, `the field ${code} should be ${en}`);
  };
  need(mappings.user, (f) => f.type.dataType === 'user', '人员单选控件', 'a user control');
  need(mappings.time, (f) => f.sqlType === 'timestamptz', '日期控件', 'a date control');
  for (const code of [mappings.punchType, mappings.result, mappings.location]) need(code, (f) => f.type.dataType === 'string' || f.type.dataType === 'text', '文本控件', 'a text control');
}

async function checkDepartment(edb: EngineExecutor, people: Settings['people']): Promise<void> {
  if (people.type !== 'department') return;
  const found = await edb.selectFrom('org_units').select('id').where('id', '=', people.departmentId).executeTakeFirst();
  if (!found) throw invalid('所选部门不存在', 'the department does not exist');
}

/** The platform's user id → the engine's user, for the people the step reads. */
async function peopleOf(edb: EngineExecutor, platform: AttendancePlatform, people: Settings['people']): Promise<Map<string, string>> {
  let query = edb.selectFrom('org_user_identities as i').innerJoin('org_users as u', 'u.id', 'i.user_id').select(['i.subject', 'i.user_id']).where('i.provider', '=', platform).where('u.state', '=', 'active');
  if (people.type === 'department') {
    // The department and every department under it.
    const ids = [people.departmentId];
    for (let level = [people.departmentId]; level.length; ) {
      const children = await edb.selectFrom('org_units').select('id').where('parent_id', 'in', level).execute();
      level = children.map((c) => c.id).filter((id) => !ids.includes(id));
      ids.push(...level);
    }
    query = query.where('i.user_id', 'in', edb.selectFrom('org_user_departments').select('user_id').where('department_id', 'in', ids));
  }
  const rows = await query.orderBy('i.subject').execute();
  return new Map(rows.map((r) => [r.subject, r.user_id]));
}

/** The engine's app of the platform (its sign-in app), read in the run's transaction. */
async function platformSettings(edb: EngineExecutor, platform: AttendancePlatform, http: typeof fetch): Promise<ChatProviderSettings> {
  const stored = await loadChatSettings(edb, platform);
  if (!stored?.enabled || !stored.appKey || !stored.appSecret) throw new AppError('ChatAppPlatformNotReady', { detail: { name: PLATFORM_NAMES[platform], nameEn: platform } });
  return { baseUrl: stored.baseUrl, appKey: stored.appKey, appSecret: stored.appSecret, corpId: stored.corpId, agentId: stored.agentId, http };
}

async function platformOf(edb: EngineExecutor): Promise<AttendancePlatform> {
  const plugin = await requireInstalledPlugin(edb, ['attendance']);
  return plugin.settings.platform === 'wxwork' ? 'wxwork' : 'dingtalk';
}

/** The platform's failures: no answer or a busy platform may pass (the run is retried); the rest fail the step. */
async function fetchPunches(platform: AttendancePlatform, settings: ChatProviderSettings, from: string, to: string, userIds: string[]): Promise<Punch[]> {
  try {
    return await readPunches(platform, settings, from, to, userIds);
  } catch (error) {
    if (!(error instanceof ChatPlatformError)) throw error;
    if (error.kind === 'unreachable' || error.platformCode === -1) throw new RetryableStepError(`${PLATFORM_NAMES[platform]}：${error.message}`);
    throw new AppError('AttendancePlatformFailed', { detail: { name: PLATFORM_NAMES[platform], nameEn: platform, reason: error.message.slice(0, 300), platformCode: error.platformCode } });
  }
}

async function targetForm(run: StepRun, code: string): Promise<RuntimeForm> {
  if (run.system) return new FormCache(run.edb).require(code);
  return run.ownerForms.get(code) ?? getRuntimeFormOrThrow(run.edb, run.actor, code);
}

async function runAttendance(run: StepRun, raw: Record<string, unknown>): Promise<unknown> {
  const settings = parseSettings(raw);
  const platform = await platformOf(run.edb);
  const { from, to } = rangeDays(settings.range, new Date());
  const people = await peopleOf(run.edb, platform, settings.people);
  if (run.dryRun) return { platform, from, to, people: people.size, sent: false };
  const target = await targetForm(run, settings.targetSchemaCode);
  checkMappings(target, settings.mappings);
  const punches = await fetchPunches(platform, await platformSettings(run.edb, platform, run.fetch), from, to, [...people.keys()]);
  const created: string[] = [];
  let skipped = 0;
  for (const part of chunks(punches, 200)) {
    // Claim each punch first: a punch another run wrote (or is writing: the key waits for its commit) is skipped.
    const claimed = await run.edb
      .insertInto('attendance_punches')
      .values(part.map((p) => ({ platform, punch_key: p.key, schema_code: target.node.code, object_id: '' })))
      .onConflict((oc) => oc.columns(['platform', 'punch_key', 'schema_code']).doNothing())
      .returning('punch_key')
      .execute();
    const fresh = new Set(claimed.map((c) => c.punch_key));
    skipped += part.length - fresh.size;
    for (const punch of part.filter((p) => fresh.has(p.key))) {
      fresh.delete(punch.key);
      const m = settings.mappings;
      const values: Record<string, unknown> = { [m.user]: people.get(punch.userId) ?? null, [m.time]: punch.time.toISOString() };
      if (m.punchType) values[m.punchType] = punch.punchType;
      if (m.result) values[m.result] = punch.result;
      if (m.location) values[m.location] = punch.location;
      const saved = await saveRecordIn(run.edb, run.actor, target, { submit: true, values }, { status: () => BizObjectStatus.Effective, ...(run.system ? { editRight: 'businessRule' as const } : {}) });
      run.dropped.push(...saved.dropped);
      await run.edb.updateTable('attendance_punches').set({ object_id: saved.result.objectId }).where('platform', '=', platform).where('punch_key', '=', punch.key).where('schema_code', '=', target.node.code).execute();
      created.push(saved.result.objectId);
    }
  }
  return { platform, from, to, people: people.size, punches: punches.length, created: created.length, skipped, ids: created.slice(0, 20) };
}

definePluginStep('attendance', {
  templates: ['attendance'],
  async check(edb, _form, raw) {
    const settings = parseSettings(raw);
    const target = await new FormCache(edb).require(settings.targetSchemaCode);
    checkMappings(target, settings.mappings);
    await checkDepartment(edb, settings.people);
  },
  run: runAttendance,
});

// POST /v2/plugin/invoke { method: 'punches', params: { from, to } }: the punches of the engine's people on those days,
// as read from the platform (nothing written): an administrator checking the plugin works, or a person their own.
definePluginMethods('attendance', {
  async punches(ctx, params) {
    const range = contracts.AttendanceRange.safeParse({ type: 'fixed', from: params.from, to: params.to });
    if (!range.success || range.data.type !== 'fixed') throw invalid('请给出 from 与 to（YYYY-MM-DD）', 'give from and to (YYYY-MM-DD)');
    parseSettings({ targetSchemaCode: '-', range: range.data, mappings: { user: '-', time: '-' } });
    const platform = ctx.plugin.settings.platform === 'wxwork' ? 'wxwork' : 'dingtalk';
    // Everyone's punches are the administrators'; anyone else sees their own only.
    const me = await ctx.edb.selectFrom('org_users').select('auth_type').where('id', '=', ctx.user.userId).executeTakeFirst();
    const everyone = await peopleOf(ctx.edb, platform, { type: 'all' });
    const people = me?.auth_type === AUTH_TYPE_ADMINISTRATOR ? everyone : new Map([...everyone].filter(([, userId]) => userId === ctx.user.userId));
    const punches = await fetchPunches(platform, await platformSettings(ctx.edb, platform, ctx.http), range.data.from, range.data.to, [...people.keys()]);
    return { platform, list: punches.slice(0, 500).map((p) => ({ ...p, time: p.time.toISOString(), userId: people.get(p.userId) ?? null, platformUserId: p.userId })) };
  },
});

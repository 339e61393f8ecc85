import { contracts } from '@tritium/shared';
import type { MessageCategory, OutsideChannel } from '@tritium/shared/constants/messages';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { loadChatSettings } from '../integrations/chat-sign-in.ts';
import type { ChatProviderSettings } from '../integrations/providers/chat-provider.ts';
import { recordOperation, type OperationActor } from '../audit/oplog.ts';
import { ENGINE_DEFAULTS } from '../notification/preferences.ts';
import { ChannelError } from '../notification/channels/channel.ts';
import { openLink } from './chat-app-link.ts';
import { platformName, sendWorkMessage, type ChatAppPlatform } from './chat-app-send.ts';

// The chat-app channel's settings (docs/decisions/0123 "Chat apps"): one row of notification_channels (kind chatApp)
// with { platforms } in the administrator's order. The apps themselves are the engine's sign-in apps
// (sign_in_providers): their AppKey, AppSecret and AgentId send the messages, so nothing secret is kept here.

const KIND = 'chatApp';

export async function loadChatAppChannel(edb: EngineExecutor): Promise<{ enabled: boolean; platforms: ChatAppPlatform[] }> {
  const row = await edb.selectFrom('notification_channels').select(['enabled', 'settings']).where('kind', '=', KIND).executeTakeFirst();
  const platforms = contracts.ChatAppPlatform.array().safeParse((row?.settings as { platforms?: unknown } | undefined)?.platforms);
  return { enabled: row?.enabled ?? false, platforms: platforms.success ? platforms.data : [] };
}

/** A platform's app that can send: switched on, with AppKey, AppSecret and, where the platform asks for it, AgentId. */
async function readyApp(edb: EngineExecutor, platform: ChatAppPlatform) {
  const stored = await loadChatSettings(edb, platform);
  // Feishu's messages come from the app itself; DingTalk and WeCom name the app's AgentId.
  return { stored, ready: !!stored?.enabled && !!stored.appKey && !!stored.appSecret && (platform === 'feishu' || !!stored.agentId) };
}

export async function chatAppChannelView(edb: EngineExecutor): Promise<contracts.ChatAppChannelDto> {
  const channel = await loadChatAppChannel(edb);
  const apps = [];
  for (const platform of contracts.ChatAppPlatform.options) {
    const { stored } = await readyApp(edb, platform);
    const people = await edb.selectFrom('org_user_identities').select((e) => e.fn.countAll<number>().as('n')).where('provider', '=', platform).executeTakeFirstOrThrow();
    apps.push({ platform, configured: !!stored?.appKey && !!stored.appSecret, enabled: !!stored?.enabled, hasAgentId: platform === 'feishu' || !!stored?.agentId, people: Number(people.n) });
  }
  return { ...channel, apps };
}

/** `edb` is a transaction: the change and its operation log entry commit together. */
export async function saveChatAppChannel(edb: EngineExecutor, actor: OperationActor & { userId: string }, body: contracts.ChatAppChannelSaveBody): Promise<contracts.ChatAppChannelDto> {
  if (body.enabled && !body.platforms.length) throw new AppError('ChatAppNoPlatform');
  // Switching on needs every platform chosen to be able to send: otherwise its people would silently get nothing.
  if (body.enabled) {
    for (const platform of body.platforms) {
      if (!(await readyApp(edb, platform)).ready) throw new AppError('ChatAppPlatformNotReady', { detail: { name: platformName(platform), nameEn: platform } });
    }
  }
  const before = await loadChatAppChannel(edb);
  const values = { enabled: body.enabled, settings: JSON.stringify({ platforms: body.platforms }), secrets: null, modified_by: actor.userId, modified_time: new Date() };
  await edb
    .insertInto('notification_channels')
    .values({ kind: KIND, ...values })
    .onConflict((oc) => oc.column('kind').doUpdateSet(values))
    .execute();
  await recordOperation(edb, actor, { kind: 'notificationChannel', action: 'update', objectId: KIND, objectName: '工作通知', before, after: { enabled: body.enabled, platforms: body.platforms } });
  return chatAppChannelView(edb);
}

/**
 * "发送测试消息": one work message to the administrator through the platform's app as it is saved now (the channel on or
 * not yet), so a wrong AppSecret, AgentId or an app the person cannot see shows its reason before anyone relies on it.
 * The administrator needs an account on that platform bound here; otherwise there is nobody to send it to (460006).
 */
export async function sendChatAppTest(edb: EngineExecutor, input: { engineCode: string; userId: string; platform: ChatAppPlatform; siteUrl: string; pagePath: string; http: typeof fetch }): Promise<contracts.ChannelTestResult> {
  const { stored, ready } = await readyApp(edb, input.platform);
  const name = platformName(input.platform);
  if (!ready || !stored) throw new AppError('ChatAppPlatformNotReady', { detail: { name, nameEn: input.platform } });
  const identity = await edb.selectFrom('org_user_identities').select('subject').where('user_id', '=', input.userId).where('provider', '=', input.platform).executeTakeFirst();
  if (!identity) throw new AppError('ChatAppTestNoAccount', { detail: { name, nameEn: input.platform } });
  const settings = { baseUrl: stored.baseUrl, appKey: stored.appKey, appSecret: stored.appSecret, corpId: stored.corpId, agentId: stored.agentId, http: input.http };
  const message = { title: 'Tritium 工作通知测试', content: `这是一条测试消息：收到它说明${name}工作通知设置正确。`, url: openLink(input.siteUrl, input.platform, input.engineCode, input.pagePath) };
  try {
    return { sent: true, detail: await sendWorkMessage(input.platform, settings, identity.subject, message) };
  } catch (error) {
    if (error instanceof ChannelError) return { sent: false, detail: error.message };
    throw error;
  }
}

/** What the adapter sends with: the apps able to send, in order, and the engine's lookups it needs per message. */
export interface ChatAppDelivery {
  engineCode: string;
  /** This site's address: the cards' links come back here. */
  siteUrl: string;
  platforms: { platform: ChatAppPlatform; settings: ChatProviderSettings }[];
  /** The person's user id on each platform (from sign-in or directory sync). */
  subjectsOf(userId: string): Promise<Map<string, string>>;
  /** The other outside channels that carry this category to the person (their choice, else the engine's). */
  otherChannelsOf(userId: string, category: string): Promise<OutsideChannel[]>;
}

/** The channel's delivery settings; null when it is off or no chosen app can send. */
export async function loadChatAppDelivery(db: Db, engineCode: string, http: typeof fetch, siteUrl: string): Promise<ChatAppDelivery | null> {
  const edb = engineDb(db, engineCode);
  const channel = await loadChatAppChannel(edb);
  if (!channel.enabled) return null;
  const platforms: ChatAppDelivery['platforms'] = [];
  for (const platform of channel.platforms) {
    const { stored, ready } = await readyApp(edb, platform);
    if (ready && stored) platforms.push({ platform, settings: { baseUrl: stored.baseUrl, appKey: stored.appKey, appSecret: stored.appSecret, corpId: stored.corpId, agentId: stored.agentId, http } });
  }
  if (!platforms.length) return null;
  return {
    engineCode,
    siteUrl,
    platforms,
    async subjectsOf(userId) {
      const rows = await edb.selectFrom('org_user_identities').select(['provider', 'subject']).where('user_id', '=', userId).where('provider', 'in', platforms.map((p) => p.platform)).execute();
      return new Map(rows.map((r) => [r.provider, r.subject]));
    },
    async otherChannelsOf(userId, category) {
      const rows = await edb.selectFrom('notification_preferences').select(['owner', 'channels']).where('owner', 'in', [userId, ENGINE_DEFAULTS]).where('category', '=', category as MessageCategory).execute();
      const own = rows.find((r) => r.owner === userId) ?? rows.find((r) => r.owner === ENGINE_DEFAULTS);
      const list = Array.isArray(own?.channels) ? (own.channels as OutsideChannel[]) : [];
      return list.filter((c) => c !== KIND && c !== 'robot');
    },
  };
}

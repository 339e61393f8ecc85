import type { Kysely } from 'kysely';
import type { EngineDb } from '../../../db/types.ts';
import type { contracts } from '@tritium/shared';
import { ChannelError, type ChannelKind } from './channel.ts';
import { openSecrets } from './secret-box.ts';

// The decrypted settings an adapter sends with: for server use only, never presented.

export interface EmailSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  fromAddress: string;
  fromName: string;
}

export interface SmsSettings {
  url: string;
  token: string;
  template: string;
}

export interface RobotSettings {
  id: string;
  name: string;
  platform: contracts.RobotPlatform;
  webhookUrl: string;
  secret: string;
}

/** The robot channel posts to every enabled robot of the engine. */
export interface RobotChannelSettings {
  robots: RobotSettings[];
}

export type EngineExecutor = Kysely<EngineDb>;

const unreadable = () => new ChannelError('a saved secret cannot be decrypted: the server key changed, enter it again', false);

/** Decrypted secrets of a row, or a non-retryable ChannelError when the key no longer opens them. */
export function secretsOf(sealed: string | null): Record<string, string> {
  if (!sealed) return {};
  const opened = openSecrets(sealed);
  if (!opened) throw unreadable();
  return opened;
}

export function robotSettingsOf(row: { id: string; name: string; platform: contracts.RobotPlatform; secrets: string }): RobotSettings {
  const secrets = secretsOf(row.secrets);
  return { id: row.id, name: row.name, platform: row.platform, webhookUrl: secrets.webhookUrl ?? '', secret: secrets.secret ?? '' };
}

/** The engine's settings for one channel, decrypted; null when the channel is not configured or disabled. */
export async function loadChannelSettings(edb: EngineExecutor, kind: 'email'): Promise<EmailSettings | null>;
export async function loadChannelSettings(edb: EngineExecutor, kind: 'sms'): Promise<SmsSettings | null>;
export async function loadChannelSettings(edb: EngineExecutor, kind: 'robot'): Promise<RobotChannelSettings | null>;
export async function loadChannelSettings(edb: EngineExecutor, kind: ChannelKind): Promise<EmailSettings | SmsSettings | RobotChannelSettings | null>;
export async function loadChannelSettings(edb: EngineExecutor, kind: ChannelKind): Promise<EmailSettings | SmsSettings | RobotChannelSettings | null> {
  if (kind === 'robot') {
    const rows = await edb.selectFrom('notification_robots').select(['id', 'name', 'platform', 'secrets']).where('enabled', '=', true).orderBy('created_time').execute();
    return rows.length ? { robots: rows.map(robotSettingsOf) } : null;
  }
  // The chat-app channel's delivery settings are its module's (modules/chat-apps loadChatAppDelivery).
  if (kind === 'chatApp') return null;
  return loadStoredSettings(edb, kind, true);
}

/** The saved settings of the e-mail or SMS channel, decrypted; `onlyEnabled` false reads a disabled one too (tests). */
export async function loadStoredSettings(edb: EngineExecutor, kind: 'email' | 'sms', onlyEnabled = false): Promise<EmailSettings | SmsSettings | null> {
  const row = await edb.selectFrom('notification_channels').select(['enabled', 'settings', 'secrets']).where('kind', '=', kind).executeTakeFirst();
  if (!row || (onlyEnabled && !row.enabled)) return null;
  const secrets = secretsOf(row.secrets);
  const s = row.settings as Record<string, unknown>;
  if (kind === 'email') {
    return {
      host: String(s.host),
      port: Number(s.port),
      secure: s.secure === true,
      user: String(s.user ?? ''),
      password: secrets.password ?? '',
      fromAddress: String(s.fromAddress),
      fromName: String(s.fromName ?? ''),
    };
  }
  return { url: String(s.url), token: secrets.token ?? '', template: String(s.template ?? '') };
}

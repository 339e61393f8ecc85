import { contracts } from '@tritium/shared';
import type { Kysely } from 'kysely';
import type { EngineDb } from '../../../db/types.ts';
import { AppError } from '../../../lib/app-error.ts';
import { newId } from '../../../lib/ids.ts';
import { sealSecrets } from './secret-box.ts';
import { secretsOf } from './channel-settings.ts';
import { recordOperation, type OperationActor } from '../../audit/oplog.ts';

// The admin console's side of the channels: settings as presented (secrets only as flags) and their changes.

type Edb = Kysely<EngineDb>;
type StoredKind = 'email' | 'sms';
/** The administrator who changes a channel; the change goes to the operation log (docs/decisions/0113). */
type Actor = OperationActor & { userId: string };

const EMPTY_EMAIL: contracts.EmailChannelDto = { configured: false, enabled: false, host: '', port: 465, secure: true, user: '', fromAddress: '', fromName: '', hasPassword: false };
const EMPTY_SMS: contracts.SmsChannelDto = { configured: false, enabled: false, url: '', template: '', hasToken: false };

/** A webhook address with its token hidden: scheme, host and the last four characters. */
export function maskUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}/…${url.slice(-4)}`;
}

function presentRobot(row: { id: string; name: string; platform: contracts.RobotPlatform; enabled: boolean; masked_url: string; has_secret: boolean; created_time: Date }): contracts.RobotDto {
  return { id: row.id, name: row.name, platform: row.platform, enabled: row.enabled, webhookUrlMasked: row.masked_url, hasSecret: row.has_secret, createdTime: row.created_time.toISOString() };
}

const robotColumns = ['id', 'name', 'platform', 'enabled', 'masked_url', 'has_secret', 'created_time'] as const;

export async function listChannels(edb: Edb): Promise<contracts.ChannelListResult> {
  const rows = await edb.selectFrom('notification_channels').select(['kind', 'enabled', 'settings', 'secrets']).execute();
  const email = rows.find((r) => r.kind === 'email');
  const sms = rows.find((r) => r.kind === 'sms');
  // Only whether a secret is stored leaves the server, never the secret (issue 20).
  const stored = (sealed: string | null, name: string) => !!sealed && safeSecrets(sealed)[name] !== undefined;
  const robots = await edb.selectFrom('notification_robots').select(robotColumns).orderBy('created_time').orderBy('id').execute();
  return {
    email: email ? { ...EMPTY_EMAIL, ...pick(email.settings, EMPTY_EMAIL), configured: true, enabled: email.enabled, hasPassword: stored(email.secrets, 'password') } : EMPTY_EMAIL,
    sms: sms ? { ...EMPTY_SMS, ...pick(sms.settings, EMPTY_SMS), configured: true, enabled: sms.enabled, hasToken: stored(sms.secrets, 'token') } : EMPTY_SMS,
    robots: robots.map(presentRobot),
  };
}

/** A secret that no longer decrypts still counts as set: the administrator sees it and enters it again. */
function safeSecrets(sealed: string): Record<string, string> {
  try {
    return secretsOf(sealed);
  } catch {
    return { password: '', token: '' };
  }
}

function pick<T extends object>(settings: Record<string, unknown>, shape: T): Partial<T> {
  return Object.fromEntries(Object.keys(shape).filter((k) => k in settings).map((k) => [k, settings[k]])) as Partial<T>;
}

/** Saves a channel's settings; a secret left out or empty keeps the stored one. */
async function saveChannel(edb: Edb, userId: string, kind: StoredKind, settings: Record<string, unknown>, secretName: string, secret: string | undefined): Promise<void> {
  const existing = await edb.selectFrom('notification_channels').select('secrets').where('kind', '=', kind).executeTakeFirst();
  let sealed = existing?.secrets ?? null;
  if (secret) sealed = sealSecrets({ [secretName]: secret });
  const values = { enabled: settings.enabled as boolean, settings: JSON.stringify(settings), secrets: sealed, modified_by: userId, modified_time: new Date() };
  await edb
    .insertInto('notification_channels')
    .values({ kind, ...values })
    .onConflict((oc) => oc.column('kind').doUpdateSet(values))
    .execute();
}

/** `edb` is a transaction: the change and its log entry commit together. */
export async function saveEmailChannel(edb: Edb, actor: Actor, body: contracts.EmailChannelSaveBody): Promise<contracts.ChannelListResult> {
  const { password, ...settings } = body;
  const before = (await listChannels(edb)).email;
  await saveChannel(edb, actor.userId, 'email', settings, 'password', password);
  const after = await listChannels(edb);
  await recordOperation(edb, actor, { kind: 'notificationChannel', action: 'update', objectId: 'email', objectName: '邮件', before, after: { ...after.email, ...(password ? { password } : {}) } });
  return after;
}

export async function saveSmsChannel(edb: Edb, actor: Actor, body: contracts.SmsChannelSaveBody): Promise<contracts.ChannelListResult> {
  const { token, ...settings } = body;
  const before = (await listChannels(edb)).sms;
  await saveChannel(edb, actor.userId, 'sms', settings, 'token', token);
  const after = await listChannels(edb);
  await recordOperation(edb, actor, { kind: 'notificationChannel', action: 'update', objectId: 'sms', objectName: '短信', before, after: { ...after.sms, ...(token ? { token } : {}) } });
  return after;
}

export async function addRobot(edb: Edb, actor: Actor, body: contracts.RobotAddBody): Promise<contracts.RobotDto> {
  const robot = await insertRobot(edb, actor.userId, body);
  await recordOperation(edb, actor, { kind: 'notificationChannel', action: 'create', objectId: robot.id, objectName: robot.name, after: { ...robot, secret: body.secret } });
  return robot;
}

async function insertRobot(edb: Edb, userId: string, body: contracts.RobotAddBody): Promise<contracts.RobotDto> {
  const count = await edb.selectFrom('notification_robots').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(count.n) >= contracts.NOTIFICATION_ROBOT_LIMIT) throw new AppError('NotificationRobotLimit');
  const row = await edb
    .insertInto('notification_robots')
    .values({
      id: newId(),
      name: body.name,
      platform: body.platform,
      enabled: body.enabled,
      secrets: sealSecrets({ webhookUrl: body.webhookUrl, ...(body.secret ? { secret: body.secret } : {}) }),
      masked_url: maskUrl(body.webhookUrl),
      has_secret: !!body.secret,
      created_by: userId,
    })
    .returning(robotColumns)
    .executeTakeFirstOrThrow();
  return presentRobot(row);
}

export async function getRobotRowOrThrow(edb: Edb, id: string) {
  const row = await edb.selectFrom('notification_robots').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NotificationRobotNotFound', { detail: { id } });
  return row;
}

export async function updateRobot(edb: Edb, actor: Actor, body: contracts.RobotUpdateBody): Promise<contracts.RobotDto> {
  const row = await getRobotRowOrThrow(edb, body.id);
  const robot = await changeRobot(edb, row, body);
  const secret = body.clearSecret ? null : body.secret || undefined;
  await recordOperation(edb, actor, { kind: 'notificationChannel', action: 'update', objectId: robot.id, objectName: robot.name, before: presentRobot(row), after: { ...robot, secret } });
  return robot;
}

async function changeRobot(edb: Edb, row: Awaited<ReturnType<typeof getRobotRowOrThrow>>, body: contracts.RobotUpdateBody): Promise<contracts.RobotDto> {
  const changesSecrets = !!body.webhookUrl || !!body.secret || !!body.clearSecret;
  let secrets = row.secrets;
  if (changesSecrets) {
    const old = readOldOrThrow(row.secrets, !!body.webhookUrl);
    const webhookUrl = body.webhookUrl || old.webhookUrl;
    const secret = body.clearSecret ? undefined : body.secret || old.secret;
    secrets = sealSecrets({ webhookUrl, ...(secret ? { secret } : {}) });
  }
  const updated = await edb
    .updateTable('notification_robots')
    .set({
      name: body.name,
      platform: body.platform,
      enabled: body.enabled,
      secrets,
      ...(body.webhookUrl ? { masked_url: maskUrl(body.webhookUrl) } : {}),
      has_secret: body.clearSecret ? false : body.secret ? true : row.has_secret,
      modified_time: new Date(),
    })
    .where('id', '=', body.id)
    .returning(robotColumns)
    .executeTakeFirstOrThrow();
  return presentRobot(updated);
}

/** The stored secrets to merge a change into; when they no longer decrypt, only a new address may replace them. */
function readOldOrThrow(sealed: string, hasNewUrl: boolean): Record<string, string> {
  try {
    return secretsOf(sealed);
  } catch {
    if (hasNewUrl) return {};
    throw new AppError('NotificationSecretUnreadable');
  }
}

export async function removeRobot(edb: Edb, actor: Actor, id: string): Promise<{ id: string }> {
  const removed = await edb.deleteFrom('notification_robots').where('id', '=', id).returning(robotColumns).executeTakeFirst();
  if (!removed) throw new AppError('NotificationRobotNotFound', { detail: { id } });
  await recordOperation(edb, actor, { kind: 'notificationChannel', action: 'remove', objectId: id, objectName: removed.name, before: presentRobot(removed) });
  return { id };
}

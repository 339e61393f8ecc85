import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { contracts } from '@tritium/shared';
import type { EngineDb } from '../../../db/types.ts';
import { AppError } from '../../../lib/app-error.ts';
import { ChannelError, type OutgoingMessage } from './channel.ts';
import { loadStoredSettings, robotSettingsOf } from './channel-settings.ts';
import { emailAdapter } from './email.adapter.ts';
import { smsAdapter } from './sms.adapter.ts';
import { sendToRobot } from './robot.adapter.ts';
import { getRobotRowOrThrow } from './channel-settings.service.ts';

// "发送测试": one message to the administrator through the channel's saved settings (enabled or not yet), answering
// whether it went out and the provider's words, so a wrong setting shows its reason in the console.

type Edb = Kysely<EngineDb>;

const TEST_TITLE = 'Tritium 通知测试';
const TEST_CONTENT = '这是一条测试消息：收到它说明通知渠道设置正确。';
const MobileNumber = z.string().regex(/^\+?[0-9]{5,20}$/);

async function recipientOf(edb: Edb, userId: string, kind: contracts.ChannelTestBody['kind'], to: string | undefined): Promise<OutgoingMessage['recipient']> {
  const user = await edb.selectFrom('org_users').select(['id', 'name', 'email', 'mobile']).where('id', '=', userId).executeTakeFirstOrThrow();
  const recipient = { userId: user.id, name: user.name, email: user.email ?? null, mobile: user.mobile || null };
  if (!to) {
    if ((kind === 'email' && !recipient.email) || (kind === 'sms' && !recipient.mobile)) throw new AppError('NotificationTestAddressMissing');
    return recipient;
  }
  if (kind === 'email' && !z.email().safeParse(to).success) throw invalid('测试收件人不是有效的邮箱地址', 'the test recipient is not a valid e-mail address');
  if (kind === 'sms' && !MobileNumber.safeParse(to).success) throw invalid('测试收件人不是有效的手机号', 'the test recipient is not a valid mobile number');
  return kind === 'email' ? { ...recipient, email: to } : kind === 'sms' ? { ...recipient, mobile: to } : recipient;
}

export function invalid(reason: string, reasonEn: string): AppError {
  return new AppError('NotificationChannelInvalid', { detail: { reason, reasonEn } });
}

export async function sendTestMessage(edb: Edb, userId: string, body: contracts.ChannelTestBody, link: string, http: typeof fetch): Promise<contracts.ChannelTestResult> {
  const message: OutgoingMessage = { category: 'system', title: TEST_TITLE, content: TEST_CONTENT, link, recipient: await recipientOf(edb, userId, body.kind, body.to) };
  let send: () => Promise<string>;
  if (body.kind === 'robot') {
    if (!body.robotId) throw invalid('请选择要测试的机器人', 'choose the robot to test');
    const row = await getRobotRowOrThrow(edb, body.robotId);
    send = () => sendToRobot(http, robotSettingsOf(row), message);
  } else {
    const adapter = body.kind === 'email' ? emailAdapter : smsAdapter(http);
    const settings = await loadStoredSettings(edb, body.kind).catch(unreadableAsAppError);
    if (!settings) throw new AppError('NotificationChannelNotConfigured');
    send = () => adapter.send(settings, message);
  }
  try {
    return { sent: true, detail: await send() };
  } catch (error) {
    if (error instanceof ChannelError) return { sent: false, detail: error.message };
    throw error;
  }
}

function unreadableAsAppError(error: unknown): never {
  throw error instanceof ChannelError ? new AppError('NotificationSecretUnreadable') : error;
}

import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../../db/types.ts';
import type { TypedApp } from '../../../lib/route-types.ts';
import { ok } from '../../../lib/reply.ts';
import { engineOf, inEngineTransaction, nodeContextOf } from '../../function-node/node-context.ts';
import * as channels from './channel-settings.service.ts';
import { sendTestMessage } from './channel-test.service.ts';

const tags = ['通知渠道'];
// The engine's outside channels are the Administrator's (issue 20); anyone else gets the catalogue's Forbidden.
const config = { access: 'admin' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Where the console's channel page is: the test message links back to it. */
export const CHANNEL_PAGE_PATH = '/admin/notification-channels';

/** E-mail, SMS and robot settings of the engine, and a test message per channel (/v1/notification/channel/*). */
export function notificationChannelRoutes(app: TypedApp, deps: { db: Db; http: typeof fetch }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => {
    const node = nodeContextOf(request, deps.db);
    return { edb: engineOf(node), userId: node.userId };
  };
  // A change and its operation log entry (docs/decisions/0113) in one transaction.
  const change = <T>(request: Parameters<typeof nodeContextOf>[0], work: (edb: ReturnType<typeof engineOf>, actor: ReturnType<typeof nodeContextOf>) => Promise<T>) => {
    const node = nodeContextOf(request, deps.db);
    return inEngineTransaction(node, (edb) => work(edb, node));
  };

  app.get('/v1/notification/channel/list', {
    config,
    schema: { tags, summary: '通知渠道设置（密码与密钥只显示是否已设置）', response: env(contracts.ChannelListResult) },
    handler: async (request) => ok(await channels.listChannels(ctx(request).edb)),
  });
  app.post('/v1/notification/channel/email/save', {
    config,
    schema: { tags, summary: '保存邮件（SMTP）设置；密码留空则保留原密码', body: contracts.EmailChannelSaveBody, response: env(contracts.ChannelListResult) },
    handler: async (request) => ok(await change(request, (edb, actor) => channels.saveEmailChannel(edb, actor, request.body))),
  });
  app.post('/v1/notification/channel/sms/save', {
    config,
    schema: { tags, summary: '保存短信服务设置；令牌留空则保留原令牌', body: contracts.SmsChannelSaveBody, response: env(contracts.ChannelListResult) },
    handler: async (request) => ok(await change(request, (edb, actor) => channels.saveSmsChannel(edb, actor, request.body))),
  });
  app.post('/v1/notification/channel/robot/add', {
    config,
    schema: { tags, summary: '添加群机器人（钉钉、企业微信、飞书）', body: contracts.RobotAddBody, response: env(contracts.RobotDto) },
    handler: async (request) => ok(await change(request, (edb, actor) => channels.addRobot(edb, actor, request.body))),
  });
  app.post('/v1/notification/channel/robot/update', {
    config,
    schema: { tags, summary: '修改群机器人；地址与密钥留空则保留', body: contracts.RobotUpdateBody, response: env(contracts.RobotDto) },
    handler: async (request) => ok(await change(request, (edb, actor) => channels.updateRobot(edb, actor, request.body))),
  });
  app.post('/v1/notification/channel/robot/remove', {
    config,
    schema: { tags, summary: '删除群机器人', body: contracts.RobotIdBody, response: env(contracts.RobotRemoveResult) },
    handler: async (request) => ok(await change(request, (edb, actor) => channels.removeRobot(edb, actor, request.body.id))),
  });
  app.post('/v1/notification/channel/test', {
    config,
    schema: { tags, summary: '用已保存的设置给管理员发送一条测试消息', body: contracts.ChannelTestBody, response: env(contracts.ChannelTestResult) },
    handler: async (request) => {
      const { edb, userId } = ctx(request);
      const link = `${request.protocol}://${request.host}${CHANNEL_PAGE_PATH}`;
      return ok(await sendTestMessage(edb, userId, request.body, link, deps.http));
    },
  });
}

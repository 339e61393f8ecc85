import type { FastifyRequest } from 'fastify';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { RATE_LIMITS, type TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { engineOf, inEngineTransaction, nodeContextOf } from '../function-node/node-context.ts';
import { chatAppChannelView, saveChatAppChannel, sendChatAppTest } from './chat-app-channel.ts';
import { OPEN_PATH, startInClientSignIn } from './chat-app-link.ts';
import './attendance-step.ts';

const tags = ['工作通知'];
/** The console page the test is sent from (the notification channels'); the test card's link opens it again. */
const CHANNELS_PAGE_PATH = '/admin/notification-channels';
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** The chat-app channel's settings (administrators) and the cards' link into the record (docs/decisions/0123). */
export function chatAppRoutes(app: TypedApp, deps: { db: Db; http: typeof fetch; publicUrl?: string }): void {
  const siteUrl = (request: FastifyRequest) => (deps.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
  app.get('/v1/notification/channel/chat-app', {
    config: { access: 'admin' },
    schema: { tags, summary: '钉钉、企业微信、飞书工作通知设置（所用平台与各平台应用状态）', response: env(contracts.ChatAppChannelDto) },
    handler: async (request) => ok(await chatAppChannelView(engineOf(nodeContextOf(request, deps.db)))),
  });
  app.post('/v1/notification/channel/chat-app/save', {
    config: { access: 'admin' },
    schema: { tags, summary: '保存工作通知设置：启用与所用平台（平台应用须已在登录设置中配置）', body: contracts.ChatAppChannelSaveBody, response: env(contracts.ChatAppChannelDto) },
    handler: async (request) => {
      const node = nodeContextOf(request, deps.db);
      return ok(await inEngineTransaction(node, (edb) => saveChatAppChannel(edb, node, request.body)));
    },
  });
  app.post('/v1/notification/channel/chat-app/test', {
    config: { access: 'admin' },
    schema: { tags, summary: '通过所选平台的应用给管理员本人发送一条测试工作通知（须已绑定该平台账号）', body: contracts.ChatAppTestBody, response: env(contracts.ChannelTestResult) },
    handler: async (request) => {
      const node = nodeContextOf(request, deps.db);
      return ok(await sendChatAppTest(engineOf(node), { engineCode: node.engineCode, userId: node.userId, platform: request.body.platform, siteUrl: `${siteUrl(request)}/`, pagePath: CHANNELS_PAGE_PATH, http: deps.http }));
    },
  });
  app.get(`${OPEN_PATH}/:platform/:engineCode`, {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: {
      tags,
      summary: '工作通知卡片的链接：在聊天客户端内免登后打开记录（转到平台的客户端内授权页；to 只能是本站路径）',
      params: contracts.ChatAppOpenParams,
      querystring: contracts.ChatAppOpenQuery,
    },
    handler: async (request, reply) => reply.redirect(await startInClientSignIn(deps.db, deps.http, `${siteUrl(request)}/`, request.params.platform, request.params.engineCode, request.query.to), 302),
  });
}

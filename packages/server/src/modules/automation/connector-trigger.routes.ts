import { z } from 'zod';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { deliverInbound, inboundSecret, resetInboundSecret } from './connector-trigger.ts';

const tags = ['自动化与智能按钮'];
const engine = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });
/** An outside sender: at most this many deliveries a minute from one address, as the webhook trigger allows. */
const INBOUND_RATE_LIMIT = { max: 120, timeWindow: 60_000 };

/** The inbound connector trigger (docs/decisions/0123): signed deliveries, and the designer's URL and secret. */
export function connectorTriggerRoutes(app: TypedApp, deps: { db: Db; now?: () => Date }): void {
  const node = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  // The signature covers the body's exact bytes: this scope keeps them as text rather than parsing them first.
  app.register(async (scope: TypedApp) => {
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
    scope.post(`${contracts.INBOUND_PATH}/:engineCode/:id`, {
      config: { access: 'public', rateLimit: INBOUND_RATE_LIMIT },
      schema: {
        tags,
        summary: '连接器触发：外部系统投递已签名的数据（X-Signature、X-Timestamp、X-Delivery-Id），同一投递编号只执行一次',
        params: z.strictObject({ engineCode: z.string().min(1).max(64), id: z.string().min(1).max(40) }),
        response: env(contracts.InboundDeliveryResult),
      },
      handler: async (request) => {
        const rawBody = typeof request.body === 'string' ? request.body : '';
        const now = deps.now ? deps.now() : new Date();
        return ok(await deliverInbound(deps.db, { engineCode: request.params.engineCode, automationId: request.params.id, headers: request.headers, rawBody }, now));
      },
    });
  });
  app.post('/v1/connectors/inbound/secret', {
    config: engine,
    schema: { tags, summary: '连接器触发的投递地址与签名密钥（表单的应用管理员）', body: contracts.InboundSecretBody, response: env(contracts.InboundSecretResult) },
    handler: async (request) => ok(await inboundSecret(node(request), request.body.id)),
  });
  app.post('/v1/connectors/inbound/resetsecret', {
    config: engine,
    schema: { tags, summary: '重新生成连接器触发的签名密钥（旧密钥立即失效）', body: contracts.InboundSecretBody, response: env(contracts.InboundSecretResult) },
    handler: async (request) => ok(await resetInboundSecret(node(request), request.body.id)),
  });
}

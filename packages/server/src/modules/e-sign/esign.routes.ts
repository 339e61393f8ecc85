import { z } from 'zod';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { receiveCallback } from './esign-callbacks.ts';
import { getFlow, revokeFlow, startFlow, type ESignDeps } from './esign-flows.service.ts';
import { setESignMethodDeps } from './esign-methods.ts';

const tags = ['电子签章'];
const engine = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** E-signature flows of the e-sign control and the providers' callbacks (/v1/esign/*, docs/decisions/0123). */
export function eSignRoutes(app: TypedApp, deps: ESignDeps): void {
  setESignMethodDeps(deps);
  app.get('/v1/esign/flow', {
    config: engine,
    schema: { tags, summary: '记录的电子签章控件的签署流程（最近一次）及当前用户可做的操作', querystring: contracts.ESignFlowQuery, response: env(contracts.ESignFlowResult) },
    handler: async (request) => ok(await getFlow(nodeContextOf(request, deps.db), request.query)),
  });
  app.post('/v1/esign/flow/start', {
    config: engine,
    schema: { tags, summary: '发起签署：按打印模板生成 PDF，依次发给签署人', body: contracts.ESignStartBody, response: env(contracts.ESignFlowDto) },
    handler: async (request) => ok(await startFlow(nodeContextOf(request, deps.db), deps, request.body)),
  });
  app.post('/v1/esign/flow/revoke', {
    config: engine,
    schema: { tags, summary: '撤销签署流程（仅发起人，进行中的流程）', body: contracts.ESignFlowIdBody, response: env(contracts.ESignFlowDto) },
    handler: async (request) => ok(await revokeFlow(nodeContextOf(request, deps.db), deps, request.body.flowId)),
  });
  // The providers sign the exact text they send: their own scope reads every body as text.
  app.register(async (scope: TypedApp) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));
    scope.post('/v1/esign/callback/:provider/:engineCode', {
      config: { access: 'public', rateLimit: { max: 600, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: '电子签章服务的回调（e签宝、法大大；校验签名后推进签署流程，重复的回调不重复生效）',
        params: z.strictObject({ provider: z.enum(['tsign', 'fdd']), engineCode: z.string().min(1).max(64) }),
      },
      handler: async (request) =>
        ok(
          await receiveCallback(deps, request.params.provider, request.params.engineCode, {
            headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value])),
            body: typeof request.body === 'string' ? request.body : '',
          }),
        ),
    });
  });
}

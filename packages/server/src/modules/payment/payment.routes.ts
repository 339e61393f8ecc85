import { z } from 'zod';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { parameterError } from '../../lib/app-error.ts';
import { nodeContextOf, type NodeContext } from '../function-node/node-context.ts';
import { definePluginMethods, type PluginMethodContext } from '../plugin-instances/plugin-methods.ts';
import { receiveNotify } from './payment-notify.ts';
import * as payment from './payment.service.ts';
import { PAYMENT_TEMPLATE } from './payment-record.ts';
// The automation's payment step registers itself when this module is imported.
import './payment-step.ts';

const tags = ['在线支付'];
// Any member who may read the record starts, queries and closes its payment; the service checks the record and, for a
// refund, that the caller is the app's administrator or the record's owner.
const engine = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

export interface PaymentRouteDeps {
  db: Db;
  http: typeof fetch;
  /** The platform's public address (the notify URL is built from it). */
  publicUrl: string;
  timeoutMs?: number;
}

/** An invoke's params checked like a route's body: a 777 naming the fields at fault. */
function paramsOf<T>(schema: z.ZodType<T>, params: Record<string, unknown>): T {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw parameterError(parsed.error.issues.map((issue) => ({ path: `params.${issue.path.join('.')}`, message: issue.message })));
  return parsed.data;
}

/** The same methods for POST /v2/plugin/invoke: its context names the user; their standing is read here. */
function registerPluginMethods(timeoutMs?: number): void {
  const actorOf = async (ctx: PluginMethodContext): Promise<NodeContext> => {
    const user = await ctx.edb.selectFrom('org_users').select('auth_type').where('id', '=', ctx.user.userId).executeTakeFirst();
    return { db: ctx.db, engineCode: ctx.engineCode, userId: ctx.user.userId, authType: user?.auth_type ?? 0 };
  };
  const depsOf = (ctx: PluginMethodContext): payment.PaymentDeps => ({ http: ctx.http, publicUrl: ctx.publicUrl, timeoutMs });
  definePluginMethods(PAYMENT_TEMPLATE, {
    precreate: async (ctx, params) => payment.precreate(await actorOf(ctx), paramsOf(contracts.PaymentTargetBody, params), depsOf(ctx)),
    query: async (ctx, params) => payment.query(await actorOf(ctx), paramsOf(contracts.PaymentOrderNoBody, params).orderNo, depsOf(ctx)),
    close: async (ctx, params) => payment.close(await actorOf(ctx), paramsOf(contracts.PaymentOrderNoBody, params).orderNo, depsOf(ctx)),
    refund: async (ctx, params) => payment.refund(await actorOf(ctx), paramsOf(contracts.PaymentRefundBody, params), depsOf(ctx)),
  });
}

/** The payment plugin's calls (/v1/payment/*) and the provider's notify. */
export function paymentRoutes(app: TypedApp, deps: PaymentRouteDeps): void {
  const outside: payment.PaymentDeps = { http: deps.http, publicUrl: deps.publicUrl, timeoutMs: deps.timeoutMs };
  registerPluginMethods(deps.timeoutMs);
  const node = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  app.get('/v1/payment/order', {
    config: engine,
    schema: { tags, summary: '记录的支付控件的最近一笔订单', querystring: contracts.PaymentTargetBody, response: env(contracts.PaymentOrderResult) },
    handler: async (request) => ok(await payment.latestOrder(node(request), request.query)),
  });
  app.post('/v1/payment/precreate', {
    config: engine,
    schema: { tags, summary: '发起支付：按记录的金额字段预下单，返回二维码（待支付的订单复用）', body: contracts.PaymentTargetBody, response: env(contracts.PaymentOrderDto) },
    handler: async (request) => ok(await payment.precreate(node(request), request.body, outside)),
  });
  app.post('/v1/payment/query', {
    config: engine,
    schema: { tags, summary: '向支付平台查询订单并更新状态', body: contracts.PaymentOrderNoBody, response: env(contracts.PaymentOrderDto) },
    handler: async (request) => ok(await payment.query(node(request), request.body.orderNo, outside)),
  });
  app.post('/v1/payment/close', {
    config: engine,
    schema: { tags, summary: '关闭待支付的订单', body: contracts.PaymentOrderNoBody, response: env(contracts.PaymentOrderDto) },
    handler: async (request) => ok(await payment.close(node(request), request.body.orderNo, outside)),
  });
  app.post('/v1/payment/refund', {
    config: engine,
    schema: { tags, summary: '退款（应用管理员或记录拥有者；不超过已付减已退）', body: contracts.PaymentRefundBody, response: env(contracts.PaymentOrderDto) },
    handler: async (request) => ok(await payment.refund(node(request), request.body, outside)),
  });
  // The provider posts a form body and signs its exact parameters: this scope reads the body as text.
  app.register(async (scope: TypedApp) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
    scope.post('/v1/payment/notify/:engineCode', {
      config: { access: 'public', rateLimit: { max: 600, timeWindow: 60_000 } },
      schema: { tags, summary: '支付平台的异步通知（校验 RSA2 签名、app_id、订单与金额；幂等；应答 success）', params: z.strictObject({ engineCode: z.string().min(1).max(64) }) },
      handler: async (request, reply) => {
        const answer = await receiveNotify(deps.db, request.params.engineCode, typeof request.body === 'string' ? request.body : '');
        return reply.type('text/plain; charset=utf-8').send(answer);
      },
    });
  });
}

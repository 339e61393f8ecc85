import type { FastifyError, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { contracts, ERRORS, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { FileStore } from '../files/file-store.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { AppError } from '../../lib/app-error.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { authenticateSecret, createSecret, listSecrets, revokeSecret } from './engine-secrets.ts';
import { invoke } from './open-api.service.ts';
import { describe, envelope, header } from './open-api-envelope.ts';
import { openApiFileRoutes } from './open-api-files.routes.ts';
import type { ContextCaches } from '../request-context/context.ts';

// The open API (docs/decisions/0021): engine secrets in the admin console (/v1/engine/secret/*, Administrators) and
// POST /OpenApi/Invoke for third-party systems (EngineCode / EngineSecret headers, the product's own envelope).

/** Per engine (or per address without an EngineCode): about 2 calls a second on average, bursts allowed. */
export const OPEN_API_RATE_LIMIT = {
  max: 120,
  timeWindow: '1 minute',
  keyGenerator: (request: FastifyRequest) => `openapi:${header(request, 'enginecode') ?? request.ip}`,
};

/** A form-encoded Invoke body as the flat object JSON would give: `Key[]=` / `Key[n]=` collect into a list. */
export function formBody(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\[(\d*)\]$/.exec(key);
    if (!m) {
      out[key] = value;
      continue;
    }
    const list = Array.isArray(out[m[1]]) ? (out[m[1]] as unknown[]) : (out[m[1]] = []) as unknown[];
    if (m[2] === '') list.push(value);
    else if (Number(m[2]) < 1000) list[Number(m[2])] = value;
  }
  return out;
}

const InvokeReply = z.object({
  Successful: z.boolean(),
  ErrorMessage: z.string().nullable(),
  ErrorCode: z.number().int(),
  Logined: z.boolean(),
  ReturnData: z.record(z.string(), z.unknown()).nullable(),
  DataType: z.number().int(),
});

export function openApiRoutes(app: TypedApp, deps: { db: Db; fileStore: FileStore; now?: () => number; contextCaches?: ContextCaches }): void {
  const tags = ['开放接口'];
  const admin = { access: 'admin' } as const;

  app.get('/v1/engine/secret/list', {
    config: admin,
    schema: { tags, summary: '开放接口密钥列表（只显示首尾几位）', response: { 200: successEnvelopeOf(contracts.EngineSecretListResult) } },
    handler: async (request) => ok(await listSecrets(deps.db, nodeContextOf(request, deps.db).engineCode)),
  });
  app.post('/v1/engine/secret/create', {
    config: admin,
    schema: { tags, summary: '新建开放接口密钥（完整密钥只在此返回一次）', body: contracts.EngineSecretCreateBody, response: { 200: successEnvelopeOf(contracts.EngineSecretCreateResult) } },
    handler: async (request) => ok(await createSecret(nodeContextOf(request, deps.db), request.body.name)),
  });
  app.post('/v1/engine/secret/revoke', {
    config: admin,
    schema: { tags, summary: '撤销开放接口密钥', body: contracts.EngineSecretRevokeBody, response: { 200: successEnvelopeOf(contracts.EngineSecretDto) } },
    handler: async (request) => ok(await revokeSecret(nodeContextOf(request, deps.db), request.body.id)),
  });

  // Invoke in its own scope: besides JSON it reads a form-encoded body (`BizObjectArray[0]=…` as a list), as a
  // client posting form parameters sends it (docs/decisions/0030).
  app.register(async (scope: TypedApp) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, formBody(String(body))));
    scope.post('/OpenApi/Invoke', {
      config: { access: 'public', rateLimit: OPEN_API_RATE_LIMIT },
      schema: {
        tags,
        summary: '第三方系统调用：请求头 EngineCode、EngineSecret；ActionName 为 LoadBizObject、LoadBizObjects、CreateBizObject、CreateBizObjects、UpdateBizObject、RemoveBizObject',
        response: { 200: InvokeReply, 401: InvokeReply, 413: InvokeReply, 429: InvokeReply, 500: InvokeReply, 503: InvokeReply },
      },
      // Every failure — bad JSON, rate limit, a rule of the runtime — comes back in the product's envelope.
      errorHandler: (error: FastifyError, request, reply) => {
        if (error instanceof AppError) {
          const status = error.errorName === 'OpenApiAuthFailed' ? 401 : error.status >= 500 ? error.status : 200;
          // A batch that stopped part-way answers what it did create (open-api-create.ts createBizObjects).
          const partial = (error.detail as { returnData?: Record<string, unknown> } | undefined)?.returnData ?? null;
          return reply.status(status as 200 | 401 | 500).send(envelope(partial, { code: error.code, message: describe(error) }, error.errorName !== 'OpenApiAuthFailed'));
        }
        if (error.statusCode === 429) return reply.status(429).send(envelope(null, { code: ERRORS.RateLimited.code, message: ERRORS.RateLimited.zh }, false));
        if (error.statusCode === 413) return reply.status(413).send(envelope(null, { code: ERRORS.PayloadTooLarge.code, message: ERRORS.PayloadTooLarge.zh }, false));
        if (isDatabaseUnavailable(error)) return reply.status(503).header('retry-after', '2').send(envelope(null, { code: ERRORS.ServiceUnavailable.code, message: ERRORS.ServiceUnavailable.zh }, false));
        if (error.code?.startsWith('FST_ERR_CTP')) return reply.status(200).send(envelope(null, { code: ERRORS.OpenApiBadRequest.code, message: '请求体须为 JSON 对象' }, false));
        request.log.error({ err: error }, 'open api: unhandled error');
        return reply.status(500).send(envelope(null, { code: ERRORS.ServerSystemError.code, message: ERRORS.ServerSystemError.zh }, false));
      },
      handler: async (request) => {
        const ctx = await authenticateSecret(deps.db, header(request, 'enginecode'), header(request, 'enginesecret'), deps.contextCaches);
        const body = request.body;
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError('OpenApiBadRequest', { message: '请求体须为 JSON 对象' });
        const data = await invoke(ctx, body as Record<string, unknown>, { files: { store: deps.fileStore }, now: () => new Date(deps.now?.() ?? Date.now()) });
        return envelope(data);
      },
    });
  });

  openApiFileRoutes(app, { db: deps.db, fileStore: deps.fileStore, rateLimit: OPEN_API_RATE_LIMIT });
}

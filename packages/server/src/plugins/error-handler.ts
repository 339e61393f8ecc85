import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, type ErrorDefinition } from '@tritium/shared';
import { AppError } from '../lib/app-error.ts';

/** Paths that belong to the API: never answered with the web app. */
export const API_PREFIX = /^\/(v1|v2|login|home|openapi|excelimport|excelexport|globalsearch)(\/|$|\?)/i;

function body(def: ErrorDefinition, extra: { message?: string; detail?: unknown; requestId?: string }) {
  return {
    successful: false as const,
    errorCode: def.code,
    errorMessage: extra.message ?? def.zh,
    errorType: def.type,
    errorTitle: def.type === 'SYS' ? '服务器错误' : '操作失败',
    ...(extra.detail === undefined ? {} : { detail: extra.detail }),
    ...(extra.requestId ? { requestId: extra.requestId } : {}),
  };
}

/** Maps every error to the envelope of api-conventions.md; 5xx answers never carry internals. */
export function registerErrorHandler(app: FastifyInstance, options: { spaFallback?: (request: FastifyRequest, reply: FastifyReply) => unknown } = {}): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send(body(ERRORS[error.errorName], { message: error.message, detail: error.detail, requestId: request.id }));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => {
        const place = error.validationContext ?? 'body';
        const path = String(v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
        const key = (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') || path;
        return { path: key ? key : place, message: v.message ?? 'invalid' };
      });
      return reply.status(200).send(body(ERRORS.ParameterVerificationFailed, { detail: { issues }, requestId: request.id }));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(200).send(body(ERRORS.ParameterVerificationFailed, { detail: { issues: [{ path: 'body', message: '请求体不是有效的 JSON' }] }, requestId: request.id }));
    }
    if (error.statusCode === 429) return reply.status(429).send(body(ERRORS.RateLimited, { requestId: request.id }));
    if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send(body(ERRORS.PayloadTooLarge, { requestId: request.id }));
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body(ERRORS.ServerSystemError, { requestId: request.id }));
  });

  app.setNotFoundHandler((request, reply) => {
    if (options.spaFallback && request.method === 'GET' && !API_PREFIX.test(request.url)) return options.spaFallback(request, reply);
    return reply.status(404).send(body(ERRORS.NotFound, { requestId: request.id }));
  });
}

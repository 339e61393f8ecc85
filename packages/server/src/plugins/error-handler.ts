import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, errorText, describeIssue, fieldIssue, localizeIssue, type ErrorDefinition, type LocalizableIssue, type Locale, type ZodIssueLike } from '@tritium/shared';
import { AppError } from '../lib/app-error.ts';
import { localeOf } from '../lib/locale.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/** Paths that belong to the API: never answered with the web app. */
export const API_PREFIX = /^\/(v1|v2|login|home|openapi|excelimport|excelexport|globalsearch)(\/|$|\?)/i;
/** The build's content-named files: one that is not there (a release ago's) is a 404, never the pages' document. */
const WEB_ASSET = /^\/assets\//;

const HAN = /\p{Script=Han}/u;

/** A 777's issues in the caller's language (docs/decisions/0028); other details pass unchanged. */
function localizeDetail(detail: unknown, locale: Locale): unknown {
  const issues = (detail as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return detail;
  const localized = issues.map((issue) => (issue && typeof issue === 'object' && typeof (issue as LocalizableIssue).message === 'string' ? localizeIssue(issue as LocalizableIssue, locale) : issue));
  return { ...(detail as object), issues: localized };
}

function body(def: ErrorDefinition, extra: { message?: string; detail?: unknown; requestId?: string; locale?: Locale }) {
  const english = extra.locale === 'en-US';
  // Services throw the catalogue's zh-CN text; an English caller reads the catalogue's en-US text for the same code.
  const message = english && (extra.message === undefined || extra.message === def.zh) ? def.en : (extra.message ?? def.zh);
  return {
    successful: false as const,
    errorCode: def.code,
    errorMessage: message,
    errorType: def.type,
    errorTitle: def.type === 'SYS' ? (english ? 'Server error' : '服务器错误') : english ? 'Operation failed' : '操作失败',
    ...(extra.detail === undefined ? {} : { detail: localizeDetail(extra.detail, extra.locale ?? 'zh-CN') }),
    ...(extra.requestId ? { requestId: extra.requestId } : {}),
  };
}

/** Maps every error to the envelope of api-conventions.md; 5xx answers never carry internals. */
export function registerErrorHandler(app: FastifyInstance, options: { spaFallback?: (request: FastifyRequest, reply: FastifyReply) => unknown } = {}): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const locale = localeOf(request);
    if (error instanceof AppError) {
      // A catalogue text with places ({displayName}…) is filled from the detail in the caller's language.
      const templated = locale === 'en-US' && /\{\w+\}/.test(ERRORS[error.errorName].en) && error.detail !== null && typeof error.detail === 'object';
      const message = templated ? errorText(error.errorName, locale, error.detail as Record<string, unknown>) : error.message;
      return reply.status(error.status).send(body(ERRORS[error.errorName], { message, detail: error.detail, requestId: request.id, locale }));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => {
        const place = error.validationContext ?? 'body';
        const path = String(v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
        const zodIssue = (v.params as { issue?: ZodIssueLike & { path?: unknown[] } })?.issue;
        const key = zodIssue?.path?.join('.') || path;
        const issue = localizeIssue({ path: key ? key : place, message: v.message ?? 'invalid' }, locale);
        // A contract's own Chinese text without an English template: say what kind of problem it is instead.
        if (locale === 'en-US' && zodIssue && HAN.test(issue.message)) issue.message = describeIssue({ ...zodIssue, input: null }, locale);
        return issue;
      });
      return reply.status(200).send(body(ERRORS.ParameterVerificationFailed, { detail: { issues }, requestId: request.id, locale }));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(200).send(body(ERRORS.ParameterVerificationFailed, { detail: { issues: [fieldIssue('body', undefined, 'bodyNotJson')] }, requestId: request.id, locale }));
    }
    if (error.statusCode === 429) return reply.status(429).send(body(ERRORS.RateLimited, { requestId: request.id, locale }));
    if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send(body(ERRORS.PayloadTooLarge, { requestId: request.id, locale }));
    // Any other request Fastify itself refuses (a malformed URL, content length or encoding) is the caller's fault.
    if (error.code?.startsWith('FST_') && error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(200).send(body(ERRORS.ParameterVerificationFailed, { detail: { issues: [fieldIssue('request', undefined, 'invalid')] }, requestId: request.id, locale }));
    }
    // The database is restarting or failing over: a catalogue 503 the client may retry (docs/decisions/0027).
    if (isDatabaseUnavailable(error)) return reply.status(503).header('retry-after', '2').send(body(ERRORS.ServiceUnavailable, { requestId: request.id, locale }));
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body(ERRORS.ServerSystemError, { requestId: request.id, locale }));
  });

  app.setNotFoundHandler((request, reply) => {
    if (options.spaFallback && request.method === 'GET' && !API_PREFIX.test(request.url) && !WEB_ASSET.test(request.url)) return options.spaFallback(request, reply);
    return reply.status(404).send(body(ERRORS.NotFound, { requestId: request.id, locale: localeOf(request) }));
  });
}

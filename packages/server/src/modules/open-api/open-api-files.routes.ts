import type { Readable } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { FileStore } from '../files/file-store.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { AppError } from '../../lib/app-error.ts';
import { contentDisposition, servedContentType } from '../files/content-type.ts';
import { authenticateSecret } from './engine-secrets.ts';
import { describe, envelope, header } from './open-api-envelope.ts';
import { badRequest } from './open-api-params.ts';
import { boundaryOf, MultipartError, readMultipart } from './multipart.ts';
import { openAttachment, uploadAttachment, uploadTargetOf } from './open-api-files.ts';

// POST /OpenApi/UploadAttachment and POST /Api/DownloadBizObjectFile (h3yun-facts §1.4; docs/decisions/0030): the
// product's attachment calls, authenticated like /OpenApi/Invoke (EngineCode / EngineSecret headers). The bodies are
// read here from the raw stream: the upload's file part streams into the file store, the download's few fields come
// form-encoded, as JSON or as multipart fields, as the public clients send them.

/** The download's form: a few short fields. */
const MAX_FORM_BYTES = 16 * 1024;

async function readSmall(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw badRequest([{ path: 'body', message: '请求体过大' }]);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The download's fields, whatever the encoding the client chose. */
async function formFields(request: FastifyRequest): Promise<Record<string, string>> {
  const type = request.headers['content-type'] ?? '';
  const body = request.body as Readable | undefined;
  if (!body) return {};
  const boundary = boundaryOf(type);
  if (boundary) {
    try {
      return Object.fromEntries((await readMultipart(body, boundary)).fields);
    } catch (error) {
      if (error instanceof MultipartError) throw new AppError('OpenApiBadRequest', { detail: { issues: [{ path: 'body', message: 'multipart 请求体无效' }] } });
      throw error;
    }
  }
  const raw = await readSmall(body);
  if (/^application\/json\b/i.test(type) || /^\s*\{/.test(raw)) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : String(v)]));
    } catch {
      throw badRequest([{ path: 'body', message: '须为 JSON 对象或表单' }]);
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

const field = (fields: Record<string, string>, name: string): string | undefined =>
  Object.entries(fields).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]?.trim() || undefined;

/** Answers an error in the product's envelope; `statusOf` picks the HTTP status. */
function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply, statusOf: (e: AppError) => number) {
  if (error instanceof AppError) {
    if (error.errorName === 'FileTooLarge') reply.header('connection', 'close');
    return reply.status(statusOf(error)).send(envelope(null, { code: error.code, message: describe(error) }, error.errorName !== 'OpenApiAuthFailed'));
  }
  if (error.statusCode === 429) return reply.status(429).send(envelope(null, { code: ERRORS.RateLimited.code, message: ERRORS.RateLimited.zh }, false));
  request.log.error({ err: error }, 'open api attachments: unhandled error');
  return reply.status(500).send(envelope(null, { code: ERRORS.ServerSystemError.code, message: ERRORS.ServerSystemError.zh }, false));
}

export function openApiFileRoutes(app: TypedApp, deps: { db: Db; fileStore: FileStore; rateLimit: object }): void {
  const tags = ['开放接口'];
  app.register(async (scope: TypedApp) => {
    // The bodies are read by the handlers from the raw stream (no multipart or form library is installed).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.post('/OpenApi/UploadAttachment', {
      config: { access: 'public', rateLimit: deps.rateLimit },
      schema: {
        tags,
        summary: '第三方系统上传附件：查询参数 SchemaCode、FilePropertyName、BizObjectId，multipart 字段 media；返回 AttachmentId',
      },
      // Like Invoke: HTTP 200 with Successful false, except a refused secret (401), a file over the cap (413) and 5xx.
      errorHandler: (error: FastifyError, request, reply) =>
        answerError(error, request, reply, (e) => (e.errorName === 'OpenApiAuthFailed' ? 401 : e.errorName === 'FileTooLarge' || e.status >= 500 ? e.status : 200)),
      handler: async (request) => {
        const ctx = await authenticateSecret(deps.db, header(request, 'enginecode'), header(request, 'enginesecret'));
        const target = await uploadTargetOf(ctx, request.query as Record<string, unknown>);
        const boundary = boundaryOf(request.headers['content-type']);
        const body = request.body as Readable | undefined;
        if (!boundary || !body) throw new AppError('OpenApiUploadInvalid');
        let file;
        try {
          file = (await readMultipart(body, boundary, 'media')).file;
        } catch (error) {
          if (error instanceof MultipartError) throw new AppError('OpenApiUploadInvalid');
          throw error;
        }
        if (!file) throw new AppError('OpenApiUploadInvalid');
        const id = await uploadAttachment(ctx, deps.fileStore, target, file);
        // The id in ReturnData, as Invoke answers, and at the top level too, where some clients read it.
        return { ...envelope({ AttachmentId: id }), AttachmentId: id };
      },
    });

    scope.post('/Api/DownloadBizObjectFile', {
      config: { access: 'public', rateLimit: deps.rateLimit },
      schema: { tags, summary: '第三方系统下载附件：表单字段 attachmentId、EngineCode（请求头 EngineCode、EngineSecret）；返回文件内容' },
      // A client saves whatever a 200 carries: every refusal has a non-200 status (its envelope in the body).
      errorHandler: (error: FastifyError, request, reply) =>
        answerError(error, request, reply, (e) => (e.errorName === 'OpenApiAuthFailed' ? 401 : e.status !== 200 ? e.status : 400)),
      handler: async (request, reply: FastifyReply) => {
        const fields = await formFields(request);
        const engineCode = header(request, 'enginecode') ?? field(fields, 'EngineCode');
        const named = field(fields, 'EngineCode');
        if (named && engineCode && named !== engineCode) throw badRequest([{ path: 'EngineCode', message: '与请求头的 EngineCode 不一致' }]);
        const ctx = await authenticateSecret(deps.db, engineCode, header(request, 'enginesecret'));
        const attachmentId = field(fields, 'attachmentId');
        if (!attachmentId) throw badRequest([{ path: 'attachmentId', message: '必填' }]);
        const { row, body } = await openAttachment(ctx, deps.fileStore, attachmentId);
        return reply
          .header('content-type', servedContentType(row.content_type))
          .header('content-length', String(row.size))
          .header('content-disposition', contentDisposition(row.name, row.content_type, true))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'no-store')
          .send(body);
      },
    });
  });
}

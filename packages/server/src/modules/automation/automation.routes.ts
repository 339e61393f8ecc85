import { z } from 'zod';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { deleteAutomation, listAutomations, resetWebhookSecret, saveAutomation, switchAutomation, testRun, WEBHOOK_PATH } from './automation.service.ts';
import { asyncTasks, retryRun, runLogs, smartActions, startRuns, webhookRun } from './automation-runs.service.ts';
import type { AutomationRunSettings } from './automation-runner.ts';
import { automaticOnAction } from './automation.legacy.ts';

const tags = ['自动化与智能按钮'];
// Members call; the services decide (the form's app administered for the designer's calls, roles for buttons).
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });
const Done = z.object({});
/** A webhook caller is outside the platform: at most this many calls a minute from one address. */
const WEBHOOK_RATE_LIMIT = { max: 120, timeWindow: 60_000 };

export function automationRoutes(app: TypedApp, deps: { db: Db; runs: AutomationRunSettings; now?: () => Date }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  const now = () => (deps.now ? deps.now() : new Date());
  app.post('/v1/automatic/list', {
    config,
    schema: { tags, summary: '表单的自动化列表', body: contracts.AutomationListBody, response: env(contracts.AutomationListResult) },
    handler: async (request) => ok(await listAutomations(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/automatic/save', {
    config,
    schema: { tags, summary: '新建或保存自动化', body: contracts.AutomationSaveBody, response: env(contracts.AutomationSaveResult) },
    handler: async (request) => ok(await saveAutomation(ctx(request), request.body, now())),
  });
  app.post('/v1/automatic/enable', {
    config,
    schema: { tags, summary: '启用自动化', body: contracts.AutomationIdBody, response: env(contracts.AutomationSaveResult) },
    handler: async (request) => ok(await switchAutomation(ctx(request), request.body.id, true, now())),
  });
  app.post('/v1/automatic/disable', {
    config,
    schema: { tags, summary: '停用（暂停）自动化', body: contracts.AutomationIdBody, response: env(contracts.AutomationSaveResult) },
    handler: async (request) => ok(await switchAutomation(ctx(request), request.body.id, false, now())),
  });
  app.post('/v1/automatic/delete', {
    config,
    schema: { tags, summary: '删除自动化（连同执行记录）', body: contracts.AutomationIdBody, response: env(Done) },
    handler: async (request) => ok((await deleteAutomation(ctx(request), request.body.id), {})),
  });
  app.post('/v1/automatic/resetsecret', {
    config,
    schema: { tags, summary: '重置Webhook调用凭证', body: contracts.AutomationIdBody, response: env(contracts.AutomationSaveResult) },
    handler: async (request) => ok(await resetWebhookSecret(ctx(request), request.body.id)),
  });
  app.post('/v1/automatic/logs', {
    config,
    schema: { tags, summary: '自动化执行记录', body: contracts.AutomationLogsBody, response: env(contracts.AutomationLogsResult) },
    handler: async (request) => ok(await runLogs(ctx(request), request.body)),
  });
  app.post('/v1/automatic/retry', {
    config,
    schema: { tags, summary: '重试失败的执行', body: contracts.AutomationRetryBody, response: env(z.object({ runId: z.string() })) },
    handler: async (request) => ok(await retryRun(ctx(request), request.body.runId)),
  });
  app.post('/v1/automatic/testrun', {
    config,
    schema: { tags, summary: '试运行（不写入数据、不发送消息）', body: contracts.AutomationTestRunBody, response: env(contracts.AutomationTestRunResult) },
    handler: async (request) => ok(await testRun(ctx(request), request.body, deps.runs)),
  });
  app.post(`${WEBHOOK_PATH}/:engineCode/:id`, {
    config: { access: 'public', rateLimit: WEBHOOK_RATE_LIMIT },
    schema: {
      tags,
      summary: '调用Webhook触发的自动化（凭证放在 token 参数或 X-Automation-Token 请求头）',
      params: z.strictObject({ engineCode: z.string().min(1).max(64), id: z.string().min(1).max(40) }),
      querystring: z.object({ token: z.string().max(200).optional() }),
      body: z.unknown(),
      response: env(z.object({ runId: z.string() })),
    },
    handler: async (request) => {
      const header = request.headers['x-automation-token'];
      const token = request.query.token ?? (typeof header === 'string' ? header : '');
      return ok(await webhookRun(deps.db, request.params.engineCode, request.params.id, token, request.body ?? {}));
    },
  });
  app.post('/v1/bizdata/action/automation', {
    config,
    schema: { tags, summary: '手动执行按钮或自定义触发的自动化', body: contracts.RunAutomationBody, response: env(contracts.RunAutomationResult) },
    handler: async (request) => ok(await startRuns(ctx(request), request.body)),
  });
  app.post('/v1/smartaction/list', {
    config,
    schema: { tags, summary: '当前用户可用的智能按钮', body: contracts.SmartActionListBody, response: env(contracts.SmartActionListResult) },
    handler: async (request) => ok(await smartActions(ctx(request), request.body)),
  });
  app.post('/v1/smartaction/run', {
    config,
    schema: { tags, summary: '执行智能按钮', body: contracts.SmartActionRunBody, response: env(contracts.RunAutomationResult) },
    handler: async (request) => ok(await startRuns(ctx(request), { schemaCode: request.body.schemaCode, automationId: request.body.actionCode, objectIds: request.body.objectIds })),
  });
  app.get('/v1/toolkit/asynctask/list', {
    config,
    schema: { tags, summary: '我的后台任务', querystring: contracts.AsyncTaskListQuery, response: env(contracts.AsyncTaskListResult) },
    handler: async (request) => ok(await asyncTasks(ctx(request), request.query)),
  });
  app.get('/v1/toolkit/asynctask/get', {
    config,
    schema: { tags, summary: '一个后台任务的状态', querystring: contracts.AsyncTaskQuery, response: env(contracts.AsyncTaskListResult) },
    handler: async (request) => ok(await asyncTasks(ctx(request), { pageIndex: 0, pageSize: 1 }, request.query.taskId)),
  });

  // The legacy call posts a form body `PostData=<json>`: its own scope reads that content type (and JSON).
  app.register(async (scope: TypedApp) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    scope.post('/Automatic/OnAction', {
      config,
      schema: { tags, summary: '旧版自动化调用：LoadTriggers、SaveTrigger（PostData 中的 ActionName）' },
      handler: async (request) => automaticOnAction(ctx(request), request.body),
    });
  });
}

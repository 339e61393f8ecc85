import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { FileStore } from '../files/file-store.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { invokeAppAction, runFormAction, runListAction } from './script-actions.ts';
import { dryRun } from './dry-run.ts';
import { readScriptLimits, saveScriptLimits } from './script-limits.ts';
import { engineDb } from '../../db/database.ts';

const tags = ['自定义代码'];
// Members call; the services decide: the form opened (actions), the app seen (custom APIs), the app administered (dry run).
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

export function scriptActionRoutes(app: TypedApp, deps: { db: Db; fileStore: FileStore }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  const files = { store: deps.fileStore };
  app.post('/v1/codeeditor/action', {
    config,
    schema: { tags, summary: '运行表单后端代码的动作（按钮、前端代码调用）', body: contracts.FormActionBody, response: env(contracts.FormActionResult) },
    handler: async (request) => ok(await runFormAction(ctx(request), request.body, files)),
  });
  app.post('/v1/codeeditor/listaction', {
    config,
    schema: { tags, summary: '运行列表按钮的后端代码（选中的数据）', body: contracts.ListActionBody, response: env(contracts.ListActionResult) },
    handler: async (request) => ok(await runListAction(ctx(request), request.body, files)),
  });
  app.post('/v1/codeeditor/invoke', {
    config,
    schema: { tags, summary: '调用应用的自定义接口', body: contracts.AppInvokeBody, response: env(contracts.AppInvokeResult) },
    handler: async (request) => ok(await invokeAppAction(ctx(request), request.body, files)),
  });
  app.post('/v1/codeeditor/dryrun', {
    config,
    schema: { tags, summary: '试运行表单后端代码（所有改动都会回滚）', body: contracts.DryRunBody, response: env(contracts.DryRunResult) },
    handler: async (request) => ok(await dryRun(ctx(request), request.body)),
  });
  app.post('/v1/codeeditor/limits', {
    config,
    schema: { tags, summary: '本组织脚本运行的 CPU 时间和内存上限', response: env(contracts.ScriptLimitsResult) },
    handler: async (request) => {
      const c = ctx(request);
      return ok(await readScriptLimits(engineDb(deps.db, c.engineCode), c));
    },
  });
  app.post('/v1/codeeditor/limits/save', {
    config,
    schema: { tags, summary: '设置本组织脚本运行的 CPU 时间和内存上限（系统管理员）', body: contracts.ScriptLimits, response: env(contracts.ScriptLimitsResult) },
    handler: async (request) => {
      const c = ctx(request);
      return ok(await deps.db.transaction().execute((trx) => saveScriptLimits(engineDb(trx as unknown as Db, c.engineCode), c, request.body)));
    },
  });
}

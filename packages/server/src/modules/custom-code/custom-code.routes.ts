import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { checkCode, codeVersion, codeVersions, loadCode, rollbackCode, runtimeScript, saveCode } from './custom-code.service.ts';

const tags = ['自定义代码'];
// Members call; the services decide: the app administered for the editor's calls, the form opened for `runtime`.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

export function customCodeRoutes(app: TypedApp, deps: { db: Db; now?: () => Date }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  const now = () => (deps.now ? deps.now() : new Date());
  app.post('/v1/codeeditor/load', {
    config,
    schema: { tags, summary: '读取表单或应用的代码（没有保存过时为模板）', body: contracts.CodeLoadBody, response: env(contracts.CodeLoadResult) },
    handler: async (request) => ok(await loadCode(ctx(request), request.body)),
  });
  app.post('/v1/codeeditor/save', {
    config,
    schema: { tags, summary: '保存代码为新版本（基于的版本不是最新版本时拒绝）', body: contracts.CodeSaveBody, response: env(contracts.CodeSaveResult) },
    handler: async (request) => ok(await saveCode(ctx(request), request.body, now())),
  });
  app.post('/v1/codeeditor/check', {
    config,
    schema: { tags, summary: '检查代码的语法和类型', body: contracts.CodeCheckBody, response: env(contracts.CodeCheckResult) },
    handler: async (request) => ok(await checkCode(ctx(request), request.body)),
  });
  app.post('/v1/codeeditor/versions', {
    config,
    schema: { tags, summary: '代码的历史版本', body: contracts.CodeVersionsBody, response: env(contracts.CodeVersionsResult) },
    handler: async (request) => ok(await codeVersions(ctx(request), request.body)),
  });
  app.post('/v1/codeeditor/version', {
    config,
    schema: { tags, summary: '读取代码的一个历史版本', body: contracts.CodeVersionBody, response: env(contracts.CodeVersionResult) },
    handler: async (request) => ok(await codeVersion(ctx(request), request.body)),
  });
  app.post('/v1/codeeditor/rollback', {
    config,
    schema: { tags, summary: '回滚到历史版本（保存为新版本）', body: contracts.CodeVersionBody, response: env(contracts.CodeSaveResult) },
    handler: async (request) => ok(await rollbackCode(ctx(request), request.body, now())),
  });
  app.post('/v1/codeeditor/runtime', {
    config,
    schema: { tags, summary: '表单运行时的前端代码（已编译）', body: contracts.CodeRuntimeBody, response: env(contracts.CodeRuntimeResult) },
    handler: async (request) => ok(await runtimeScript(ctx(request), request.body.schemaCode)),
  });
}

import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { loadRules, saveRules } from './business-rules.service.ts';
import { recomputeProgress, recomputeRecord, startRecompute } from './rollup-recompute.ts';

const tags = ['业务规则与汇总'];
// Members call; the services decide (the form's app administered, docs/decisions/0015).
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

export function businessRuleRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  app.post('/v1/form/businessrule/load', {
    config,
    schema: { tags, summary: '加载表单的业务规则（草稿与已发布）', body: contracts.BusinessRuleLoadBody, response: env(contracts.BusinessRuleLoadResult) },
    handler: async (request) => ok(await loadRules(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/form/businessrule/save', {
    config,
    schema: { tags, summary: '保存业务规则草稿（发布表单后生效）', body: contracts.BusinessRuleSaveBody, response: env(contracts.BusinessRuleSaveResult) },
    handler: async (request) => ok(await saveRules(ctx(request), request.body)),
  });
  app.post('/v1/form/rollup/recompute', {
    config,
    schema: { tags, summary: '重新计算表单所有数据的汇总（后台任务）', body: contracts.RollupRecomputeBody, response: env(contracts.RollupRecomputeResult) },
    handler: async (request) => ok(await startRecompute(ctx(request), request.body.schemaCode)),
  });
  app.get('/v1/form/rollup/progress', {
    config,
    schema: { tags, summary: '汇总重算任务的进度', querystring: contracts.RollupProgressQuery, response: env(contracts.RollupProgressResult) },
    handler: async (request) => ok(await recomputeProgress(ctx(request), request.query.actionId)),
  });
  app.post('/v1/form/rollup/recomputerecord', {
    config,
    schema: { tags, summary: '重新计算一条数据的汇总', body: contracts.RollupRecomputeRecordBody, response: env(contracts.RollupRecomputeRecordResult) },
    handler: async (request) => ok(await recomputeRecord(ctx(request), request.body)),
  });
}

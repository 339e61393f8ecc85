import { contracts, successEnvelopeOf } from '@tritium/shared';
import { FORMULA_FUNCTIONS } from '@tritium/shared/formula/index';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { presentFunction } from './formula.presenter.ts';
import * as formulas from './formula.service.ts';

const tags = ['公式'];
// Any member of the engine: parsing and the catalogue reveal nothing; checking against a form needs it opened
// (getPublishedFormOrThrow decides).
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** The formula editor's calls (issue 7; docs/decisions/0012-formula-language.md). */
export function formulaRoutes(app: TypedApp, deps: { db: Db }): void {
  app.post('/v1/formula/expression/parse', {
    config,
    schema: { tags, summary: '解析公式：语法错误（含位置）、引用的字段和函数', body: contracts.FormulaParseBody, response: env(contracts.FormulaParseResult) },
    handler: async (request) => ok(await formulas.parseExpression(nodeContextOf(request, deps.db), request.body)),
  });
  app.post('/v1/formula/expression/validate', {
    config,
    schema: { tags, summary: '校验公式：字段是否存在于已发布表单、类型与结果类型', body: contracts.FormulaValidateBody, response: env(contracts.FormulaValidateResult) },
    handler: async (request) => ok(await formulas.validateExpression(nodeContextOf(request, deps.db), request.body)),
  });
  app.get('/v1/formula/function/list', {
    config,
    schema: { tags, summary: '公式函数列表（说明与示例）', querystring: contracts.FormulaFunctionListQuery, response: env(contracts.FormulaFunctionListResult) },
    handler: async (request) => {
      const list = FORMULA_FUNCTIONS.filter((info) => !request.query.category || info.category === request.query.category).map(presentFunction);
      return ok({ list, total: list.length, hasMore: false });
    },
  });
}

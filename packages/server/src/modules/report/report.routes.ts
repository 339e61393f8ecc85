import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import * as boards from './board.service.ts';
import { widgetData } from './report-data.service.ts';
import { ReportCache } from './report-cache.ts';
import { reportFields } from './report-fields.ts';
import { exportWidget } from './report-export.ts';
import { XLSX_TYPE } from '../data-port/task-files.ts';
import { contentDisposition } from '../files/content-type.ts';

// The job that builds a form's pre-aggregation (registered by the app with the other jobs).
export { PRE_AGGREGATE_JOB, preAggregateHandler } from './pre-aggregate.ts';

const tags = ['报表与仪表盘'];
// Every member of the engine may call; the services decide (a node or form one may not open is 404, docs/decisions/0044).
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Reports and dashboards (issue 22): the spec names no paths; docs/decisions/0044 chooses these. */
export function reportRoutes(app: TypedApp, deps: { db: Db; clock?: () => Date; preAggregateFromRows?: number }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  // One cache per app: results of this process, checked against the tables' data versions on every read.
  const cache = new ReportCache();

  app.get('/v1/dashboard/load', {
    config,
    schema: { tags, summary: '读取报表或仪表盘的设计', querystring: contracts.BoardQuery, response: env(contracts.BoardDto) },
    handler: async (request) => ok(await boards.loadBoard(ctx(request), request.query.code)),
  });
  app.post('/v1/dashboard/save', {
    config,
    schema: { tags, summary: '保存报表或仪表盘的设计（应用管理员）', body: contracts.SaveBoardBody, response: env(contracts.BoardDto) },
    handler: async (request) => ok(await boards.saveBoard(ctx(request), request.body)),
  });
  app.get('/v1/report/fields', {
    config,
    schema: { tags, summary: '组件可用的字段（含子表列，隐藏字段除外）', querystring: contracts.ReportFieldsQuery, response: env(contracts.ReportFieldsResult) },
    handler: async (request) => ok(await reportFields(ctx(request), request.query.schemaCode)),
  });
  app.post('/v1/report/data', {
    config,
    schema: { tags, summary: '组件数据：按维度分组汇总（在查看者的数据范围内）', body: contracts.ReportDataBody, response: env(contracts.ReportDataResult) },
    handler: async (request) => ok(await widgetData(ctx(request), request.body.widget, request.body.filter, { cache, now: deps.clock?.() ?? new Date(), preAggregateFromRows: deps.preAggregateFromRows })),
  });
  app.post('/v1/report/export', {
    config,
    schema: { tags, summary: '导出组件数据为 Excel（与组件显示的数据相同）', body: contracts.ReportDataBody },
    handler: async (request, reply) => {
      const { name, body } = await exportWidget(ctx(request), request.body.widget, request.body.filter, { cache, now: deps.clock?.() ?? new Date() });
      return reply.header('content-type', XLSX_TYPE).header('content-disposition', contentDisposition(name, XLSX_TYPE, true)).header('cache-control', 'no-store').send(body);
    },
  });
}

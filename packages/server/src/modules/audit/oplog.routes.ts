import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../../plugins/auth.ts';
import { listOperations, operationsToExport } from './oplog-query.ts';
import { EXPORT_DISPOSITION, oplogWorkbook, XLSX_TYPE } from './oplog-export.ts';
import { verifyChain } from './oplog-chain-check.ts';

const tags = ['操作日志'];
// Administrators only: the log shows every setting's change in the engine (docs/decisions/0113).
const config = { access: 'admin' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

export function oplogRoutes(app: TypedApp, deps: { db: Db }): void {
  const engineCode = (request: Parameters<typeof actorOf>[0]) => actorOf(request).engine!.engine_code;
  app.get('/v1/admin/oplog/list', {
    config,
    schema: { tags, summary: '操作日志（按时间、操作人、对象类型、内容筛选）', querystring: contracts.OplogListQuery, response: env(contracts.OplogListResult) },
    handler: async (request) => ok(await listOperations(engineDb(deps.db, engineCode(request)), request.query)),
  });
  app.get('/v1/admin/oplog/export', {
    config,
    schema: { tags, summary: '导出操作日志为 Excel（与筛选条件相同，最多 10000 条）', querystring: contracts.OplogFilterQuery },
    handler: async (request, reply) => {
      const body = await oplogWorkbook(await operationsToExport(engineDb(deps.db, engineCode(request)), request.query));
      return reply.header('content-type', XLSX_TYPE).header('content-disposition', EXPORT_DISPOSITION).header('cache-control', 'no-store').send(body);
    },
  });
  app.post('/v1/admin/oplog/verify', {
    config,
    schema: { tags, summary: '校验操作日志的完整性（哈希链）', response: env(contracts.OplogVerifyResult) },
    handler: async (request) => ok(await verifyChain(deps.db, engineCode(request))),
  });
}

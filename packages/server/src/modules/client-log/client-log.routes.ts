import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { RATE_LIMITS } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';

/** POST /v1/log: errors the web client met (calls.md §7 "Plugins and other"). */
export function clientLogRoutes(app: TypedApp, deps: { db: Db }): void {
  app.post('/v1/log', {
    config: { access: 'optional', rateLimit: RATE_LIMITS.clientLog },
    schema: { tags: ['日志'], summary: '上报前端错误日志', body: contracts.ErrorLogBody },
    handler: async (request) => {
      const body = request.body;
      const actor = request.actor;
      await deps.db
        .insertInto('platform.error_logs')
        .values({
          engine_code: actor?.engine?.engine_code ?? (actor?.claims.eng ?? null),
          account_id: actor?.accountId ?? null,
          level: body.Level,
          content: body.Content,
          payload: JSON.stringify(body),
        })
        .execute();
      request.log.warn({ clientLog: { level: body.Level, content: body.Content, route: body.Route } }, 'client error');
      return ok({});
    },
  });
}

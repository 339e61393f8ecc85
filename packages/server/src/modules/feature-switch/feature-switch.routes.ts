import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../../plugins/auth.ts';
import { FEATURE_SWITCH_DEFAULTS } from '@tritium/shared';

/** POST /v1/switch/batch: "batch get feature switches by names"; an engine's own value wins over the default. */
export function featureSwitchRoutes(app: TypedApp, deps: { db: Db }): void {
  app.post('/v1/switch/batch', {
    config: { access: 'engine', allowGuest: true },
    schema: { tags: ['功能开关'], summary: '按名称批量获取功能开关', body: contracts.FeatureSwitchesBody },
    handler: async (request) => {
      const names = [...new Set(request.body.names)];
      const rows = await deps.db
        .selectFrom('platform.feature_switches')
        .select(['name', 'value'])
        .where('engine_code', '=', actorOf(request).engine!.engine_code)
        .where('name', 'in', names)
        .execute();
      const own = new Map(rows.map((r) => [r.name, r.value]));
      return ok({ switches: names.map((name) => ({ name, value: own.get(name) ?? FEATURE_SWITCH_DEFAULTS[name] ?? '0' })) });
    },
  });
}

import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../../plugins/auth.ts';
import { setSwitch, switchValues } from './feature-switch.service.ts';
import { originOf } from '../audit/oplog.ts';

/** POST /v1/switch/batch: "batch get feature switches by names"; an engine's own value wins over the default. POST /v1/switch/set: an administrator sets one. */
export function featureSwitchRoutes(app: TypedApp, deps: { db: Db }): void {
  app.post('/v1/switch/batch', {
    config: { access: 'engine', allowGuest: true },
    schema: { tags: ['功能开关'], summary: '按名称批量获取功能开关', body: contracts.FeatureSwitchesBody },
    handler: async (request) => {
      const values = await switchValues(deps.db, actorOf(request).engine!.engine_code, request.body.names);
      return ok({ switches: [...values].map(([name, value]) => ({ name, value })) });
    },
  });
  app.post('/v1/switch/set', {
    config: { access: 'admin' },
    schema: { tags: ['功能开关'], summary: '开启或关闭一个功能开关（管理员）', body: contracts.SetFeatureSwitchBody },
    handler: async (request) => {
      const actor = actorOf(request);
      await setSwitch(deps.db, actor.engine!.engine_code, request.body.name, request.body.value, { userId: actor.userId ?? null, origin: originOf(request) });
      return ok({ name: request.body.name, value: request.body.value });
    },
  });
}

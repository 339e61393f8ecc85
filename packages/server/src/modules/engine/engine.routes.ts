import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { AppError } from '../../lib/app-error.ts';
import { actorOf } from '../../plugins/auth.ts';
import { updateAccount } from '../account/account.repo.ts';
import { findEngine, findEngineMember, listConnectedEngines } from './engine.repo.ts';
import { assertEngineUsable } from './engine-state.ts';
import { presentEngine } from './engine.presenter.ts';

const tags = ['组织'];

export function engineRoutes(app: TypedApp, deps: { db: Db }): void {
  app.get('/v1/engine/current', {
    config: { access: 'engine', allowGuest: true },
    schema: { tags, summary: '当前组织' },
    handler: async (request) => {
      const actor = actorOf(request);
      return ok(presentEngine(actor.engine!, !!actor.isExternal));
    },
  });

  app.get('/v1/engine/connected', {
    config: { access: 'account' },
    schema: { tags, summary: '已加入的组织（pageIndex 从 0 开始，默认每页 50）', querystring: contracts.ConnectedEnginesQuery },
    handler: async (request) => {
      const { pageIndex, pageSize } = request.query;
      const limit = pageSize === -1 ? null : pageSize;
      const actor = actorOf(request);
      // A session bound to one engine (single sign-on, a chat platform) cannot enter the others: they are not offered.
      const page = await listConnectedEngines(deps.db, actor.accountId!, { offset: limit === null ? 0 : pageIndex * limit, limit }, actor.claims.eng);
      return ok({ list: page.rows.map((e) => presentEngine(e, e.is_external)), total: page.total, hasMore: page.hasMore });
    },
  });

  app.put('/v1/engine/current', {
    config: { access: 'account' },
    schema: { tags, summary: '切换当前组织', body: contracts.SwitchEngineBody },
    handler: async (request) => {
      const actor = actorOf(request);
      const accountId = actor.accountId!;
      const { engineCode } = request.body;
      if (actor.claims.eng && actor.claims.eng !== engineCode) throw new AppError('EngineAccessDenied', { status: 403 });
      const member = await findEngineMember(deps.db, accountId, engineCode);
      if (!member) throw new AppError((await findEngine(deps.db, engineCode)) ? 'EngineAccessDenied' : 'EngineNotExist', { status: 403 });
      assertEngineUsable(member.engine);
      if (member.userState === 'disabled') throw new AppError('UserDisabled');
      await updateAccount(deps.db, accountId, { last_engine_code: engineCode });
      return ok({});
    },
  });
}

import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import * as comments from './sns.service.ts';
import * as taskTips from './task-tips.service.ts';

const tags = ['评论与任务提醒'];
// Every member of the engine may call; the services decide (docs/decisions/0009): a form one may not open is 404,
// comments and task tips need their form attribute on, removing needs the author or an app administrator.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Comments and task tips on records (calls.md "Comments and task tips"), at the spec's paths. */
export function snsRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  app.post('/v1/toolkit/sns/list', {
    config,
    schema: { tags, summary: '数据的评论（最新在前，含回复）', body: contracts.SnsListBody, response: env(contracts.SnsListResult) },
    handler: async (request) => ok(await comments.listComments(ctx(request), request.body)),
  });
  app.post('/v1/toolkit/sns/count', {
    config,
    schema: { tags, summary: '数据的评论数（含回复）', body: contracts.SnsCountBody, response: env(contracts.SnsCountResult) },
    handler: async (request) => ok(await comments.countRecordComments(ctx(request), request.body)),
  });
  app.post('/v1/toolkit/sns/add', {
    config,
    schema: { tags, summary: '发表评论（最多2000字、8个附件）', body: contracts.SnsAddBody, response: env(contracts.CommentDto) },
    handler: async (request) => ok(await comments.addComment(ctx(request), request.body)),
  });
  app.post('/v1/toolkit/sns/comment/add', {
    config,
    schema: { tags, summary: '回复评论', body: contracts.SnsReplyBody, response: env(contracts.CommentDto) },
    handler: async (request) => ok(await comments.replyToComment(ctx(request), request.body)),
  });
  app.delete('/v1/toolkit/sns/remove', {
    config,
    schema: { tags, summary: '删除评论及其回复（本人或应用管理员）', querystring: contracts.SnsRemoveQuery, response: env(contracts.SnsRemoveResult) },
    handler: async (request) => ok(await comments.removeComment(ctx(request), request.query)),
  });

  app.post('/v1/tasktip/add', {
    config,
    schema: { tags, summary: '添加任务提醒', body: contracts.TaskTipAddBody, response: env(contracts.TaskTipDto) },
    handler: async (request) => ok(await taskTips.addTaskTip(ctx(request), request.body)),
  });
  app.post('/v1/tasktip/list', {
    config,
    schema: { tags, summary: '数据的任务提醒（按提醒时间）', body: contracts.TaskTipListBody, response: env(contracts.TaskTipListResult) },
    handler: async (request) => ok(await taskTips.listTaskTips(ctx(request), request.body)),
  });
  app.post('/v1/tasktip/cancel', {
    config,
    schema: { tags, summary: '取消任务提醒', body: contracts.TaskTipIdBody, response: env(contracts.TaskTipDto) },
    handler: async (request) => ok(await taskTips.cancelTaskTip(ctx(request), request.body)),
  });
  app.post('/v1/tasktip/remove', {
    config,
    schema: { tags, summary: '删除任务提醒', body: contracts.TaskTipIdBody, response: env(contracts.TaskTipRemoveResult) },
    handler: async (request) => ok(await taskTips.removeTaskTip(ctx(request), request.body)),
  });
}

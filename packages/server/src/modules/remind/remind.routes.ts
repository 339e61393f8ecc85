import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import * as remind from './remind.service.ts';

const tags = ['提醒'];
// Every member of the engine; each reads and marks only their own reminders.
const config = { access: 'engine' } as const;

/** Reminders (calls.md "Reminders and messages": POST /v1/remindtask/list; PUT /state/read; GET /unread/count). */
export function remindRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  app.post('/v1/remindtask/list', {
    config,
    schema: { tags, summary: '我的提醒（新的在前）', body: contracts.RemindTaskListBody, response: { 200: successEnvelopeOf(contracts.RemindTaskListResult) } },
    handler: async (request) => ok(await remind.listReminders(ctx(request), request.body)),
  });
  app.put('/v1/remindtask/state/read', {
    config,
    schema: { tags, summary: '标记提醒为已读', body: contracts.RemindTaskReadBody, response: { 200: successEnvelopeOf(contracts.RemindTaskReadResult) } },
    handler: async (request) => ok(await remind.markRead(ctx(request), request.body)),
  });
  app.get('/v1/remindtask/unread/count', {
    config,
    schema: { tags, summary: '未读提醒数', response: { 200: successEnvelopeOf(contracts.RemindUnreadCountResult) } },
    handler: async (request) => ok(await remind.unreadCount(ctx(request))),
  });
}

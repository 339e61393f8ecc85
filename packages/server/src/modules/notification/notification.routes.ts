import { z } from 'zod';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import { INSTANCE_HEADER, INSTANCE_ID } from '../../lib/instance-id.ts';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, nodeContextOf } from '../function-node/node-context.ts';
import * as center from './message-center.service.ts';
import { messagesAfter } from './notify.ts';
import type { LiveHub } from './live-hub.ts';
import { openEventStream } from '../../lib/event-stream.ts';

const tags = ['消息'];
// Every member of the engine; each reads and marks only their own messages.
const config = { access: 'engine' } as const;
/** How long a new stream waits for this process's LISTEN before it is refused (503 / 100050; the browser retries). */
const LISTEN_WAIT_MS = 5_000;

/**
 * The message center (calls.md "Reminders and messages": POST /v1/toolkit/internalmessage/list, read, count), the
 * caller's notification preferences, the administrator's delivery log, and the live stream of events.
 */
export function notificationRoutes(app: TypedApp, deps: { db: Db; hub: LiveHub }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  app.post('/v1/toolkit/internalmessage/list', {
    config,
    schema: { tags, summary: '我的消息（新的在前）', body: contracts.InternalMessageListBody, response: { 200: successEnvelopeOf(contracts.InternalMessageListResult) } },
    handler: async (request) => ok(await center.listMessages(ctx(request), request.body)),
  });
  app.post('/v1/toolkit/internalmessage/read', {
    config,
    schema: { tags, summary: '标记消息为已读', body: contracts.InternalMessageReadBody, response: { 200: successEnvelopeOf(contracts.InternalMessageReadResult) } },
    handler: async (request) => ok(await center.markMessagesRead(ctx(request), request.body)),
  });
  app.post('/v1/toolkit/internalmessage/count', {
    config,
    schema: { tags, summary: '未读消息数（按类型）', response: { 200: successEnvelopeOf(contracts.InternalMessageCountResult) } },
    handler: async (request) => ok(await center.countMessages(ctx(request))),
  });
  app.get('/v1/notification/preference', {
    config,
    schema: { tags, summary: '通知设置（我的与组织默认）', response: { 200: successEnvelopeOf(contracts.NotificationPreferenceResult) } },
    handler: async (request) => ok(await center.getPreferences(ctx(request))),
  });
  app.post('/v1/notification/preference/save', {
    config,
    schema: { tags, summary: '保存通知设置', body: contracts.NotificationPreferenceSaveBody, response: { 200: successEnvelopeOf(contracts.NotificationPreferenceResult) } },
    handler: async (request) => ok(await center.setPreferences(ctx(request), request.body)),
  });
  app.post('/v1/notification/delivery/list', {
    config,
    schema: { tags, summary: '消息发送记录（系统管理员）', body: contracts.DeliveryListBody, response: { 200: successEnvelopeOf(contracts.DeliveryListResult) } },
    handler: async (request) => ok(await center.listDeliveries(ctx(request), request.body)),
  });

  // Server-sent events: new messages (with their seq as the event id), to-do counts and job progress. A browser
  // that reconnects sends Last-Event-ID and is first sent the messages it missed.
  app.get('/v1/toolkit/live', {
    config,
    schema: { tags, summary: '实时事件流（text/event-stream）', headers: z.object({ 'last-event-id': z.string().max(20).optional() }).passthrough() },
    handler: async (request, reply) => {
      const c = ctx(request);
      const lastText = request.headers['last-event-id'];
      const last = typeof lastText === 'string' && /^\d{1,15}$/.test(lastText) ? Number(lastText) : undefined;
      if (!deps.hub.canOpen(c.engineCode, c.userId)) throw new AppError('LiveStreamLimit');
      // Not before this process hears the events (its LISTEN connects in the background): the browser tries again.
      if (!(await deps.hub.hearing(LISTEN_WAIT_MS))) throw new AppError('ServiceUnavailable');
      openEventStream(reply, request.id, { [INSTANCE_HEADER]: INSTANCE_ID });
      reply.raw.write('retry: 3000\n\n');
      const replay =
        last === undefined
          ? undefined
          : async () => (await messagesAfter(engineOf(c), c.userId, last)).map((m) => ({ kind: 'message', id: Number(m.seq), data: { seq: Number(m.seq), category: m.category, title: m.title } }));
      const stream = await deps.hub.open(c.engineCode, c.userId, reply.raw, replay);
      if (!stream) {
        reply.raw.end();
        return;
      }
      stream.send('ready', { replayed: last !== undefined });
    },
  });
}

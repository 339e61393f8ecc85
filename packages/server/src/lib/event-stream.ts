import type { FastifyReply } from 'fastify';

/**
 * Takes the answer over as a server-sent-event stream: the headers every stream of the platform sends (no caching,
 * no proxy buffering — nginx would hold the events back otherwise). The caller writes the events and ends it.
 */
export function openEventStream(reply: FastifyReply, requestId: string, headers: Record<string, string> = {}): FastifyReply['raw'] {
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': requestId,
    ...headers,
  });
  return reply.raw;
}

import { describe, expect, it } from 'vitest';
import { parseEventStream } from './live-events.ts';

describe('the live stream reader', () => {
  it('splits events, keeps ids, skips comments and pings without an event name, and leaves a partial event for later', () => {
    const { events, rest } = parseEventStream('retry: 3000\n\n: ping\n\nid: 7\nevent: message\ndata: {"seq":7,"title":"待办"}\n\nevent: todos\r\ndata: {}\r\n\r\nevent: job\ndata: {"pro');
    expect(events).toEqual([
      { event: 'message', id: '7', data: { seq: 7, title: '待办' } },
      { event: 'todos', id: undefined, data: {} },
    ]);
    expect(rest).toBe('event: job\ndata: {"pro');
    expect(parseEventStream(`${rest}gress":50}\n\n`).events).toEqual([{ event: 'job', id: undefined, data: { progress: 50 } }]);
  });

  it('drops an event whose data is not JSON', () => {
    expect(parseEventStream('event: message\ndata: {oops\n\n').events).toEqual([]);
  });
});

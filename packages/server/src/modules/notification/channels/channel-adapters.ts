import type { ChannelAdapter, ChannelKind } from './channel.ts';
import { emailAdapter } from './email.adapter.ts';
import { robotAdapter } from './robot.adapter.ts';
import { smsAdapter } from './sms.adapter.ts';

/** The outside channels by kind (the in-app message is the core's own), sending through `http` (lib/outbound-http.ts). */
export function channelAdapters(http: typeof fetch): Map<ChannelKind, ChannelAdapter> {
  return new Map<ChannelKind, ChannelAdapter>([
    ['email', emailAdapter],
    ['sms', smsAdapter(http)],
    ['robot', robotAdapter(http)],
  ]);
}

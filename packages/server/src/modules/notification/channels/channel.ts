// The outside channels as adapters (issue 20): the notification core hands each delivery to the adapter of its kind
// with the engine's settings (loadChannelSettings) and records the answer or the ChannelError in its delivery log.

export type ChannelKind = 'email' | 'sms' | 'robot' | 'chatApp';

export interface OutgoingMessage {
  category: string; // e.g. 'workflow', 'comment', 'dataport', 'system'
  title: string; // plain text
  content: string; // plain text
  link: string | null; // absolute URL back to the record or work item
  recipient: { userId: string; name: string; email: string | null; mobile: string | null };
}

/** A failed send: retryable (network, 5xx, timeouts) or not (bad address, refused credentials). */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface ChannelAdapter {
  kind: ChannelKind;
  /** Sends with the engine's settings for this channel; throws ChannelError. Answers a short delivery detail for the log. */
  send(settings: unknown, message: OutgoingMessage): Promise<string>;
}

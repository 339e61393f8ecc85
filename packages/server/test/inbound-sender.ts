import { createHmac } from 'node:crypto';

// An outside system delivering to an inbound connector trigger (docs/decisions/0123), as its documentation tells a
// sender to: X-Timestamp (Unix seconds), X-Delivery-Id, and X-Signature = hex HMAC-SHA256 of `<timestamp>.<raw body>`
// with the automation's signing secret. Written apart from the server's check so that the two meet only on the wire.

export interface SignedDelivery {
  headers: Record<string, string>;
  body: string;
}

export function signDelivery(secret: string, payload: unknown, options: { deliveryId: string; at?: Date; timestamp?: string }): SignedDelivery {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const timestamp = options.timestamp ?? String(Math.floor((options.at ?? new Date()).getTime() / 1000));
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-delivery-id': options.deliveryId, 'x-signature': signature },
  };
}

import type { ApiError } from './api-error.ts';

/**
 * How API errors reach the person. The app plugs in antd's message and notification (see
 * app/notifier-bridge.tsx); tests plug in spies. Business errors are short toasts, system errors a
 * notification with the title and the request id so support can find the log.
 */
export interface Notifier {
  bizError(error: ApiError): void;
  sysError(error: ApiError): void;
}

const silentNotifier: Notifier = { bizError() {}, sysError() {} };

let current: Notifier = silentNotifier;

export function setNotifier(notifier: Notifier | undefined): void {
  current = notifier ?? silentNotifier;
}

export function getNotifier(): Notifier {
  return current;
}

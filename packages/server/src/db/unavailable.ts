/**
 * Errors that mean "the database cannot be reached right now" (restart, failover, network), as opposed to a query
 * that is wrong: requests answer them with 503 / 100050 and retry later, jobs end Timeout (retryable) rather than
 * Failed, and the process keeps running (docs/decisions/0027).
 */

// SQLSTATE: class 08 connection exception; 57P01 admin shutdown (terminating connection), 57P02 crash shutdown,
// 57P03 cannot connect now (starting up / shutting down); 53300 too many connections.
const SQLSTATES = /^(08...|57P01|57P02|57P03|53300)$/;
// Node socket errors on the way to the server.
const ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EAI_AGAIN', 'ENOTFOUND']);
// Messages of the pg driver and pool that carry no code.
const MESSAGES = [
  /^Connection terminated/,
  /is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Cannot use a pool after calling end on the pool/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== 'object') return false;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && SQLSTATES.test(code)) return true;
    // Socket errors count only as thrown by the driver itself: an outbound HTTP call (fetch) wraps them in a cause.
    if (depth === 0 && typeof code === 'string' && ERRNOS.has(code)) return true;
    if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
    // AggregateError (a connect attempt to several addresses that all refused).
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length && errors.every((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}

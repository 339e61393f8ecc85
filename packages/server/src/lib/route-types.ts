import type { FastifyInstance, FastifyBaseLogger, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** A Fastify instance whose routes are typed by their zod schemas. */
export type TypedApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** Per-route rate limits (requests per minute per client address). */
export const RATE_LIMITS = {
  signIn: { max: 30, timeWindow: '1 minute' },
  sendCode: { max: 10, timeWindow: '1 minute' },
  clientLog: { max: 60, timeWindow: '1 minute' },
} as const;

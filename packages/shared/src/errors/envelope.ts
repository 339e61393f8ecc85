import { z } from 'zod';

/** Successful answer envelope (api-conventions.md). */
export interface SuccessEnvelope<T> {
  successful: true;
  data: T;
}

/** Error envelope; `errorCode` comes from the catalogue. */
export const ErrorEnvelopeSchema = z.object({
  successful: z.literal(false),
  errorCode: z.number(),
  errorMessage: z.string(),
  errorType: z.enum(['BIZ', 'SYS']),
  errorTitle: z.string().optional(),
  errorUrl: z.string().optional(),
  requestId: z.string().optional(),
  detail: z.unknown().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** One field problem inside a 777 answer's detail.issues. */
export interface FieldIssue {
  path: string;
  message: string;
}

export function successEnvelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ successful: z.literal(true), data });
}

import { z } from 'zod';

// POST /v1/codeeditor/dryrun (docs/decisions/0118): runs one handler of a form's server script against a chosen
// record in a transaction that is always rolled back, and answers what it would have done.

export const DRYRUN_HANDLERS = ['onLoad', 'onSubmit', 'action', 'onListAction'] as const;
export const DryRunHandler = z.enum(DRYRUN_HANDLERS);
export type DryRunHandler = z.infer<typeof DryRunHandler>;

export const DryRunBody = z.strictObject({
  schemaCode: z.string().trim().min(1).max(64),
  /** The record to run against; absent: a new record. */
  objectId: z.string().trim().min(1).max(64).optional(),
  handler: DryRunHandler,
  /** Save, Submit, a workflow action or a button's action; for `action`, the name under `actions`. */
  actionName: z.string().trim().min(1).max(100).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  /** The editor's text, run in place of the saved source (unsaved changes can be tried). */
  source: z
    .string()
    .max(256 * 1024, '代码最多 256 KB')
    .refine((s) => !s.includes('\u0000'), '代码中不能含有空字符（NUL）')
    .optional(),
  language: z.enum(['ts', 'js'], { message: '语言须为 ts 或 js' }).optional(),
});
export type DryRunBody = z.infer<typeof DryRunBody>;

export const DryRunLogLine = z.object({ level: z.enum(['info', 'warn', 'error']), message: z.string(), line: z.number().int().nullable() });
export type DryRunLogLine = z.infer<typeof DryRunLogLine>;

export const DryRunResult = z.object({
  status: z.enum(['ok', 'refused', 'error', 'timeout', 'memory']),
  /** Field code → [value before, value after]. */
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
  /** The changed fields' display names, by code. */
  fieldNames: z.record(z.string(), z.string()).optional(),
  /** ctx.refuse(message) */
  refusal: z.string().optional(),
  error: z.object({ message: z.string(), line: z.number().int().nullable() }).optional(),
  logs: z.array(DryRunLogLine),
  durationMs: z.number(),
  /** ctx.respond(data) */
  responded: z.unknown().optional(),
});
export type DryRunResult = z.infer<typeof DryRunResult>;

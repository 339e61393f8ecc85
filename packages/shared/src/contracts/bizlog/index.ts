import { z } from 'zod';

// The business log (业务日志, docs/decisions/0118): every script run (its outcome and duration) and every line it
// logged. Read by the app's administrators, newest first. The code editor's view of the same call is
// custom-code/bizlog.ts (CodeLog*): the fields below keep its names.

export const BIZ_LOG_LEVELS = ['info', 'warn', 'error'] as const;
export const BizLogLevel = z.enum(BIZ_LOG_LEVELS, { message: '级别须为 info、warn 或 error' });
export type BizLogLevel = z.infer<typeof BizLogLevel>;

export const BIZ_LOG_PARTS = ['form-server', 'app-api', 'form-browser'] as const;

/** Lines are kept this many days; older ones are removed by a daily clean-up. */
export const BIZ_LOG_RETENTION_DAYS = 30;

const Instant = z.string().datetime({ offset: true, message: '时间格式无效' });
const Code = z.string().trim().min(1, '编码不能为空').max(64, '编码最多 64 个字符');

/** GET /v1/toolkit/bizlog/list */
export const BizLogListQuery = z.strictObject({
  appCode: Code.optional(),
  schemaCode: Code.optional(),
  level: BizLogLevel.optional(),
  from: Instant.optional(),
  to: Instant.optional(),
  text: z.string().trim().max(100, '搜索内容最多 100 个字').optional(),
  page: z.coerce.number().int().min(1, '页码从 1 开始').default(1),
  pageSize: z.coerce.number().int().min(1).max(200, '每页最多 200 条').default(20),
});
export type BizLogListQuery = z.infer<typeof BizLogListQuery>;

export const BizLogEntryDto = z.object({
  id: z.string(),
  at: z.string(),
  appCode: z.string(),
  schemaCode: z.string().nullable(),
  part: z.enum(BIZ_LOG_PARTS),
  handler: z.string().nullable(),
  level: BizLogLevel,
  message: z.string(),
  /** The script's own line. */
  line: z.number().int().nullable(),
  /** Set on a run's summary line; null on the lines the script logged. */
  durationMs: z.number().nullable(),
  requestId: z.string().nullable(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
});
export type BizLogEntryDto = z.infer<typeof BizLogEntryDto>;

export const BizLogListResult = z.object({ items: z.array(BizLogEntryDto), total: z.number().int(), hasMore: z.boolean() });
export type BizLogListResult = z.infer<typeof BizLogListResult>;

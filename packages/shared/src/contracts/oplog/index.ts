import { z } from 'zod';
import { ZeroBasedPageQuery } from '../common.ts';

// The operation log (操作日志, docs/decisions/0113): who changed what in the engine's settings, when, from where,
// with the values before and after (secrets masked). Administrators only.

export const OPLOG_KINDS = [
  'member', 'department', 'role', 'permissionGroup', 'appAdmin', 'form', 'workflow', 'automation', 'signIn', 'notificationChannel', 'openApiKey', 'engineSetting', 'connection', 'plugin',
] as const;
export const OplogKind = z.enum(OPLOG_KINDS);
export type OplogKind = z.infer<typeof OplogKind>;

export const OPLOG_ACTIONS = ['create', 'update', 'remove', 'publish', 'grant', 'move', 'enable', 'disable', 'revoke'] as const;
export const OplogAction = z.enum(OPLOG_ACTIONS);
export type OplogAction = z.infer<typeof OplogAction>;

/** What replaces a secret's value in the log. */
export const MASKED = '******';

/** Entries are kept this many days by default; older ones are removed by the scheduler. */
export const OPLOG_RETENTION_DAYS = 365;

const Instant = z.string().datetime({ offset: true, message: '时间格式无效' });

/** The filters of the list and of the export. */
export const OplogFilterQuery = z.strictObject({
  from: Instant.optional(),
  to: Instant.optional(),
  userId: z.string().trim().min(1).max(64).optional(),
  kind: OplogKind.optional(),
  text: z.string().trim().max(100, '搜索内容最多 100 个字').optional(),
});

/** GET /v1/admin/oplog/list */
export const OplogListQuery = OplogFilterQuery.extend(ZeroBasedPageQuery.shape);

export const OplogEntryDto = z.object({
  seq: z.number().int(),
  time: z.string(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  kind: OplogKind,
  action: OplogAction,
  objectId: z.string().nullable(),
  objectName: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
});
export type OplogEntryDto = z.infer<typeof OplogEntryDto>;

export const OplogListResult = z.object({ list: z.array(OplogEntryDto), total: z.number().int(), hasMore: z.boolean() });

/** POST /v1/admin/oplog/verify: the chain from the oldest kept entry to the newest. */
export const OplogVerifyResult = z.object({
  valid: z.boolean(),
  checked: z.number().int(),
  /** The first entry that does not hold: changed after it was written, or removed (then the number it had). */
  broken: z.object({ seq: z.number().int(), time: z.string().nullable(), reason: z.enum(['edited', 'removed']) }).nullable(),
});
export type OplogVerifyResult = z.infer<typeof OplogVerifyResult>;

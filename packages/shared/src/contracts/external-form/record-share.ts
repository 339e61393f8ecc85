import { z } from 'zod';
import { SchemaCode } from '../form-design/index.ts';
import { LinkPassword } from './link-password.ts';

// Record share links (issue 19, form scene ExternalShare) and short links. A member shares a record they can read;
// anyone with the link sees it read-only, as that member sees it. calls.md names the scene and
// POST /v1/bizdata/shortlink, not the payloads: these are ours.

/** How long a share may stay open: up to a year. */
export const SHARE_EXPIRY_HOURS_MAX = 24 * 365;

export const RecordShareDto = z.object({
  id: z.string(),
  path: z.string(),
  hasPassword: z.boolean(),
  expiresAt: z.string().nullable(),
  createdBy: z.string(),
  createdByName: z.string(),
  createdTime: z.string(),
});
export type RecordShareDto = z.infer<typeof RecordShareDto>;

const ShareTarget = { schemaCode: SchemaCode, objectId: z.string().trim().min(1).max(64) };

/** POST /v1/form/externalshare/create: a new link to the record. expiresInHours null: until revoked. */
export const RecordShareCreateBody = z.strictObject({
  ...ShareTarget,
  expiresInHours: z.number().int().min(1).max(SHARE_EXPIRY_HOURS_MAX).nullable().default(null),
  password: LinkPassword.nullable().default(null),
});
export type RecordShareCreateBody = z.input<typeof RecordShareCreateBody>;
export const RecordShareResult = z.object({ share: RecordShareDto });

/** POST /v1/form/externalshare/list: the record's open links (the caller's own; an administrator sees all). */
export const RecordShareListBody = z.strictObject(ShareTarget);
export const RecordShareListResult = z.object({ shares: z.array(RecordShareDto) });
export type RecordShareListResult = z.infer<typeof RecordShareListResult>;

/** POST /v1/form/externalshare/revoke {id}: the address is refused from now on. */
export const RecordShareRevokeBody = z.strictObject({ id: z.string().uuid() });

/** A value as the shared page shows it: its title and its text. */
export const SharedValue = z.object({ code: z.string(), displayName: z.string(), text: z.string() });
export const SharedTable = z.object({
  code: z.string(),
  displayName: z.string(),
  columns: z.array(z.object({ code: z.string(), displayName: z.string() })),
  rows: z.array(z.array(z.string())),
});

/** GET /v1/external/share?engineCode&token (password in the X-Link-Password header) → the record, or why not. */
export const SharedRecordQuery = z.strictObject({ engineCode: z.string().min(1).max(64), token: z.string().min(1).max(64) });
export const SharedRecordResult = z.object({
  displayName: z.string(),
  needsPassword: z.boolean(),
  title: z.string(),
  fields: z.array(SharedValue),
  tables: z.array(SharedTable),
});
export type SharedRecordResult = z.infer<typeof SharedRecordResult>;

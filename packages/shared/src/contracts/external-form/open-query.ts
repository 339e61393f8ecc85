import { z } from 'zod';
import { SchemaCode } from '../form-design/index.ts';
import { LinkPassword, PUBLIC_LINK_PASSWORD_MAX } from './link-password.ts';

// Open-query pages (issue 19, form scene OpenQuery): the administrator picks query fields (matched exactly) and result
// fields; a visitor without an account looks records up. domain.md: access levels public, password, identity (phone
// number). calls.md names the scene, not the payloads: these are ours.

export const OPEN_QUERY_ACCESS = ['public', 'password', 'identity'] as const;
export type OpenQueryAccess = (typeof OPEN_QUERY_ACCESS)[number];
/** At most this many records answer one query. */
export const OPEN_QUERY_RESULTS_MAX = 20;

export const OpenQueryDto = z.object({
  schemaCode: z.string(),
  enabled: z.boolean(),
  path: z.string(),
  access: z.enum(OPEN_QUERY_ACCESS),
  hasPassword: z.boolean(),
  queryFields: z.array(z.string()),
  resultFields: z.array(z.string()),
  mobileField: z.string().nullable(),
  ownerId: z.string(),
  ownerName: z.string(),
});
export type OpenQueryDto = z.infer<typeof OpenQueryDto>;

/** POST /v1/form/openquery/get {schemaCode} → the form's page or null; /reset gives it a new address. */
export const OpenQueryGetBody = z.strictObject({ schemaCode: SchemaCode });
export const OpenQueryResult = z.object({ query: OpenQueryDto.nullable() });
export type OpenQueryResult = z.infer<typeof OpenQueryResult>;

const FieldCode = z.string().trim().min(1).max(63);

/** POST /v1/form/openquery/save. password: absent keeps it, null removes it. */
export const OpenQuerySaveBody = z.strictObject({
  schemaCode: SchemaCode,
  enabled: z.boolean(),
  access: z.enum(OPEN_QUERY_ACCESS),
  password: LinkPassword.nullable().optional(),
  queryFields: z.array(FieldCode).min(1, '至少选择一个查询字段').max(5, '最多5个查询字段'),
  resultFields: z.array(FieldCode).min(1, '至少选择一个结果字段').max(30, '最多30个结果字段'),
  /** identity: the field holding the mobile number the visitor proves; records are matched on it too. */
  mobileField: FieldCode.nullable().default(null),
  ownerId: z.string().trim().min(1).max(64),
});
export type OpenQuerySaveBody = z.input<typeof OpenQuerySaveBody>;

/** GET /v1/external/query?engineCode&token (password in X-Link-Password) → what the visitor fills. */
export const OpenQueryPageQuery = z.strictObject({ engineCode: z.string().min(1).max(64), token: z.string().min(1).max(64) });
export const OpenQueryPage = z.object({
  displayName: z.string(),
  access: z.enum(OPEN_QUERY_ACCESS),
  needsPassword: z.boolean(),
  queryFields: z.array(z.object({ code: z.string(), displayName: z.string() })),
});
export type OpenQueryPage = z.infer<typeof OpenQueryPage>;

const Mobile = z.string().regex(/^1\d{10}$/, '请输入正确的11位手机号');

/** POST /v1/external/query/code: a code to the visitor's mobile (identity access). */
export const OpenQueryCodeBody = z.strictObject({ engineCode: z.string().min(1).max(64), token: z.string().min(1).max(64), mobile: Mobile });

/** POST /v1/external/query: every query field's value; the password, or the mobile and its code, as the page asks. */
export const OpenQuerySearchBody = z.strictObject({
  engineCode: z.string().min(1).max(64),
  token: z.string().min(1).max(64),
  password: z.string().max(PUBLIC_LINK_PASSWORD_MAX).optional(),
  mobile: Mobile.optional(),
  code: z.string().regex(/^\d{6}$/, '请输入6位验证码').optional(),
  values: z.record(FieldCode, z.string().trim().max(200)),
});
export type OpenQuerySearchBody = z.input<typeof OpenQuerySearchBody>;
export const OpenQuerySearchResult = z.object({
  columns: z.array(z.object({ code: z.string(), displayName: z.string() })),
  rows: z.array(z.array(z.string())),
});
export type OpenQuerySearchResult = z.infer<typeof OpenQuerySearchResult>;

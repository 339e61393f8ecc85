import { z } from 'zod';
import { codeSchema } from '../../validation/zod.ts';

// Connection configs and connectors of an engine (issue 44; docs/decisions/0120). Administrators manage them at
// /v1/connectors/*; the advanced button, scripts and automations call connectors. Secrets are write-only: answers
// carry `has…` flags, and a save that leaves a secret out (or empty) keeps the one stored.

/** Delivery-log rows are kept this many days. */
export const CONNECTOR_LOG_RETENTION_DAYS = 30;
/** Failures in a row after which a connection's status becomes exception. */
export const CONNECTION_FAILURES_TO_EXCEPTION = 3;

export const ConnectionStatus = z.enum(['disabled', 'normal', 'exception']);
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;

export const ConnectionAuthKind = z.enum(['none', 'basic', 'bearer', 'apiKey', 'oauth2', 'hmac']);
export type ConnectionAuthKind = z.infer<typeof ConnectionAuthKind>;

const HttpUrl = z.url({ protocol: /^https?$/, error: '请输入以 http:// 或 https:// 开头的地址' }).max(2000);
const Secret = z.string().max(4000).optional();
const HeaderName = z.string().trim().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, '请求头名称只能包含字母、数字和 - _ 等符号');
const Path = z.string().trim().max(1000).refine((p) => p === '' || p.startsWith('/'), '路径须以 / 开头');

/** Non-secret settings of the authentication; which apply depends on the kind. */
export const ConnectionAuthSettings = z.strictObject({
  /** basic: the user name. */
  username: z.string().trim().max(200).default(''),
  /** apiKey: the header or query parameter that carries the key. */
  apiKeyName: z.string().trim().max(100).default(''),
  apiKeyIn: z.enum(['header', 'query']).default('header'),
  /** oauth2 (client credentials): the token endpoint, the client id and the scope asked for. */
  tokenUrl: z.union([HttpUrl, z.literal('')]).default(''),
  clientId: z.string().trim().max(200).default(''),
  scope: z.string().trim().max(500).default(''),
  /** hmac: the header that carries the hex HMAC-SHA256 of `<timestamp>.<body>`, the timestamp in X-Timestamp. */
  signatureHeader: z.union([HeaderName, z.literal('')]).default(''),
});
export type ConnectionAuthSettings = z.infer<typeof ConnectionAuthSettings>;

export const ConnectionSaveBody = z.strictObject({
  /** Absent: a new connection. */
  originalCode: codeSchema.optional(),
  code: codeSchema.max(64),
  name: z.string().trim().min(1, '请输入名称').max(100, '名称最多 100 个字'),
  baseUrl: HttpUrl,
  authKind: ConnectionAuthKind,
  auth: ConnectionAuthSettings.default(() => ConnectionAuthSettings.parse({})),
  /** The secret of the kind: basic's password, bearer's token, the API key, the OAuth2 client secret, the HMAC key. */
  secret: Secret,
  /** GET of this path (relative to the base URL) is the health check; empty: the base URL itself. */
  healthPath: Path.default(''),
});
export type ConnectionSaveBody = z.infer<typeof ConnectionSaveBody>;

export const ConnectionDto = z.object({
  code: z.string(),
  name: z.string(),
  kind: z.literal('http'),
  baseUrl: z.string(),
  authKind: ConnectionAuthKind,
  auth: ConnectionAuthSettings,
  /** Whether a secret is stored; never the secret. */
  hasSecret: z.boolean(),
  healthPath: z.string(),
  status: ConnectionStatus,
  failureCount: z.number().int(),
  lastError: z.string().nullable(),
  lastCheckedTime: z.string().nullable(),
  connectorCount: z.number().int(),
  modifiedTime: z.string(),
});
export type ConnectionDto = z.infer<typeof ConnectionDto>;

export const ConnectionListResult = z.object({ items: z.array(ConnectionDto) });
export type ConnectionListResult = z.infer<typeof ConnectionListResult>;
export const ConnectionCodeQuery = z.strictObject({ code: codeSchema });
export const ConnectionCodeBody = z.strictObject({ code: codeSchema });
export const ConnectionEnableBody = z.strictObject({ code: codeSchema, enabled: z.boolean() });

/** The health check's outcome, and the connection as it now stands. */
export const ConnectionTestResult = z.object({ ok: z.boolean(), httpStatus: z.number().int().nullable(), durationMs: z.number().int(), error: z.string().nullable(), connection: ConnectionDto });
export type ConnectionTestResult = z.infer<typeof ConnectionTestResult>;

export const ConnectorParam = z.strictObject({
  name: z.string().trim().min(1, '请输入参数名').max(100),
  in: z.enum(['query', 'body', 'header']),
  /** Text with `{{Name}}` places, filled from the call's values (a form's fields, a script's params). */
  value: z.string().max(2000),
});
export type ConnectorParam = z.infer<typeof ConnectorParam>;

/** A small dotted path into the JSON answer: `data.items[0].name`; empty: the whole answer. */
export const JsonPath = z.string().trim().max(300).regex(/^(?:[A-Za-z_$\u4e00-\u9fa5][\w$\u4e00-\u9fa5-]*|\[\d+\])?(?:\.[A-Za-z_$\u4e00-\u9fa5][\w$\u4e00-\u9fa5-]*|\[\d+\])*$/, '路径形如 data.items[0].name');

export const ConnectorOutput = z.strictObject({
  name: z.string().trim().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, '输出名只能包含字母、数字和下划线'),
  path: JsonPath,
  /** For a list answer: each item's fields by name → path inside the item (fills a sub-table's rows). */
  itemFields: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/), JsonPath).optional(),
});
export type ConnectorOutput = z.infer<typeof ConnectorOutput>;

export const ConnectorMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export const ConnectorSaveBody = z.strictObject({
  originalCode: codeSchema.optional(),
  code: codeSchema.max(64),
  name: z.string().trim().min(1, '请输入名称').max(100, '名称最多 100 个字'),
  connectionCode: codeSchema,
  method: ConnectorMethod,
  /** Relative to the connection's base URL; may hold `{{Name}}` places. */
  path: Path,
  params: z.array(ConnectorParam).max(50).default([]),
  outputs: z.array(ConnectorOutput).max(50).default([]),
});
export type ConnectorSaveBody = z.infer<typeof ConnectorSaveBody>;

export const ConnectorDto = ConnectorSaveBody.omit({ originalCode: true }).extend({ connectionName: z.string(), modifiedTime: z.string() });
export type ConnectorDto = z.infer<typeof ConnectorDto>;
export const ConnectorListQuery = z.strictObject({ connectionCode: codeSchema.optional() });
export const ConnectorListResult = z.object({ items: z.array(ConnectorDto) });
export type ConnectorListResult = z.infer<typeof ConnectorListResult>;

/** Runs a connector by hand from the console with the values given. */
export const ConnectorRunBody = z.strictObject({ code: codeSchema, values: z.record(z.string(), z.unknown()).default(() => ({})) });
export type ConnectorRunBody = z.infer<typeof ConnectorRunBody>;
/** A connector's mapped answer: each output by name. */
export const ConnectorRunResult = z.object({ outputs: z.record(z.string(), z.unknown()), httpStatus: z.number().int(), durationMs: z.number().int() });
export type ConnectorRunResult = z.infer<typeof ConnectorRunResult>;

export const ConnectorCallSource = z.enum(['health', 'console', 'button', 'script', 'automation']);
export const ConnectorCallDto = z.object({
  id: z.string(),
  time: z.string(),
  connectionCode: z.string(),
  connectorCode: z.string().nullable(),
  source: ConnectorCallSource,
  method: z.string(),
  /** The address without its query (an API key may travel there). */
  url: z.string(),
  httpStatus: z.number().int().nullable(),
  ok: z.boolean(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
export type ConnectorCallDto = z.infer<typeof ConnectorCallDto>;
export const ConnectorLogQuery = z.strictObject({
  connectionCode: codeSchema.optional(),
  pageIndex: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const ConnectorLogResult = z.object({ items: z.array(ConnectorCallDto), total: z.number().int() });
export type ConnectorLogResult = z.infer<typeof ConnectorLogResult>;

/** The advanced button pressed in a form: its connector runs with the form's values. */
export const ButtonCallBody = z.strictObject({
  schemaCode: codeSchema,
  objectId: z.string().max(64).optional(),
  controlCode: codeSchema,
  values: z.record(z.string(), z.unknown()).default(() => ({})),
});
export type ButtonCallBody = z.infer<typeof ButtonCallBody>;
/** Values to set in the form by control code; a sub-table's value is its rows. */
export const ButtonCallResult = z.object({ values: z.record(z.string(), z.unknown()), durationMs: z.number().int() });
export type ButtonCallResult = z.infer<typeof ButtonCallResult>;

/** Connectors the form designer offers the advanced button (any designer may read their names). */
export const ConnectorChoicesResult = z.object({ items: z.array(z.object({ code: z.string(), name: z.string(), connectionName: z.string(), outputs: z.array(z.string()) })) });
export type ConnectorChoicesResult = z.infer<typeof ConnectorChoicesResult>;

import { z } from 'zod';
import { codeSchema } from '../../validation/zod.ts';
const NodeCode = codeSchema.max(64, '编码最多64个字符');

// Two ends of connectors (issue 44; docs/decisions/0123, "The inbound trigger and the data-source node"): the
// inbound connector trigger (an outside system posts signed deliveries to an automation) and the data-source node
// (290), a read-only list of a connector's answer with paging and filters.

/** Header names of an inbound delivery, in the style of the outbound HMAC authentication (docs/decisions/0120). */
export const INBOUND_HEADERS = { signature: 'X-Signature', timestamp: 'X-Timestamp', delivery: 'X-Delivery-Id' } as const;
/** A delivery whose timestamp is further than this from the platform's clock is refused. */
export const INBOUND_WINDOW_SECONDS = 300;
export const INBOUND_PATH = '/v1/connectors/inbound';

/** POST /v1/connectors/inbound/secret | resetsecret {id}: the automation's delivery URL (a path) and signing secret. */
export const InboundSecretBody = z.strictObject({ id: z.string().trim().min(1).max(40) });
export const InboundSecretResult = z.object({
  url: z.string(),
  secret: z.string(),
  headers: z.object({ signature: z.string(), timestamp: z.string(), delivery: z.string() }),
});
export type InboundSecretResult = z.infer<typeof InboundSecretResult>;
/** What a delivery answers, the first time and every time the same delivery id comes again. */
export const InboundDeliveryResult = z.object({ runId: z.string(), deliveryId: z.string() });

const PlaceName = z.string().trim().regex(/^[^{}\s]{1,64}$/, '请填写连接器参数中的占位名（不含空格和花括号）');
const FieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/);
const Label = z.string().trim().min(1, '请填写名称').max(40, '名称最多40个字符');

/** A data-source node's settings: which connector, which list output, the columns, the filters and the paging. */
export const DataSourceDefinition = z.strictObject({
  connectorCode: codeSchema,
  /** The output that is a list with item fields: its items are the rows. */
  listOutput: FieldName,
  columns: z.array(z.strictObject({ field: FieldName, title: Label })).min(1, '请至少选择一列').max(30),
  /** Each offered filter: the connector's `{{place}}` it fills and the label shown. */
  filters: z.array(z.strictObject({ place: PlaceName, label: Label })).max(10).default([]),
  paging: z
    .strictObject({
      pageIndexPlace: PlaceName,
      pageSizePlace: PlaceName,
      /** The number the outside system gives its first page (0 or 1). */
      firstPage: z.union([z.literal(0), z.literal(1)]).default(1),
      /** The output holding the number of rows in all pages; none: the list is one page. */
      totalOutput: FieldName.nullable().default(null),
    })
    .nullable()
    .default(null),
});
export type DataSourceDefinition = z.infer<typeof DataSourceDefinition>;
export type DataSourceDefinitionInput = z.input<typeof DataSourceDefinition>;

export const DataSourceNodeQuery = z.strictObject({ nodeCode: NodeCode });
export const DataSourceDto = z.object({
  code: z.string(),
  displayName: z.string(),
  appCode: z.string(),
  definition: DataSourceDefinition.nullable(),
  canDesign: z.boolean(),
  modifiedTime: z.string().nullable(),
});
export type DataSourceDto = z.infer<typeof DataSourceDto>;

export const DataSourceSaveBody = z.strictObject({ nodeCode: NodeCode, definition: DataSourceDefinition });
export type DataSourceSaveBody = z.input<typeof DataSourceSaveBody>;

export const DATA_SOURCE_PAGE_SIZES = [10, 20, 50, 100] as const;
/** POST /v1/connectors/datasource/query: one page with the filters typed (by place; empty ones are sent empty). */
export const DataSourceQueryBody = z.strictObject({
  nodeCode: NodeCode,
  pageIndex: z.number().int().min(0).max(100_000).default(0),
  pageSize: z.number().int().min(1).max(100).default(20),
  filters: z.record(z.string().max(64), z.string().max(200)).default(() => ({})),
});
export type DataSourceQueryBody = z.input<typeof DataSourceQueryBody>;
export const DataSourceQueryResult = z.object({
  columns: z.array(z.object({ field: z.string(), title: z.string() })),
  rows: z.array(z.record(z.string(), z.unknown())),
  total: z.number().int(),
});
export type DataSourceQueryResult = z.infer<typeof DataSourceQueryResult>;

/** GET /v1/connectors/datasource/connectors: GET and POST connectors with a list output, for the node's designer. */
export const DataSourceConnectorsResult = z.object({
  items: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      connectionName: z.string(),
      method: z.string(),
      /** Outputs that are lists with item fields (the rows' columns are the item fields). */
      lists: z.array(z.object({ name: z.string(), fields: z.array(z.string()) })),
      /** Every output's name (for the total). */
      outputs: z.array(z.string()),
      /** The `{{place}}` names in its path and parameters (for the filters and the paging). */
      places: z.array(z.string()),
    }),
  ),
});
export type DataSourceConnectorsResult = z.infer<typeof DataSourceConnectorsResult>;

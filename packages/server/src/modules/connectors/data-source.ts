import { contracts } from '@tritium/shared';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { AppError } from '../../lib/app-error.ts';
import { canAdministerApp } from '../function-node/function-node.policy.ts';
import { engineOf, getNodeOrThrow, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { requireInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { callConnector } from './connector-calls.ts';
import type { OutsideDeps } from './connector-client.ts';
import { getConnectorRowOrThrow, type ConnectorRow } from './connectors.service.ts';

// The data-source node (290; docs/decisions/0123): a connector's list answer shown read-only, a page at a time, with
// filters the outside system applies. Whoever may open the node reads it (node permissions, as for a board); the
// app's administrators set it up. The page and the filters travel to the outside system as the connector's
// `{{place}}` values; only the configured columns of each item come back.

const PLACE = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/** The `{{place}}` names of a connector's path and parameters. */
export function placesOf(connector: Pick<ConnectorRow, 'path' | 'params'>): string[] {
  const texts = [connector.path, ...connector.params.flatMap((p) => [p.value])];
  return [...new Set(texts.flatMap((text) => [...text.matchAll(PLACE)].map((m) => m[1]!)))];
}

async function dataSourceNodeOf(ctx: NodeContext, code: string) {
  const edb = engineOf(ctx);
  const viewer = await viewerOf(edb, ctx);
  const { view, node } = await getNodeOrThrow(edb, viewer, code);
  if (node.node_type !== FunctionNodeType.DataSourceModule) throw new AppError('DataSourceNotNode', { detail: { code } });
  return { edb, node, canDesign: canAdministerApp(viewer, view.permissionOf(view.app.code)) };
}

async function storedDefinition(edb: EngineExecutor, nodeCode: string) {
  const row = await edb.selectFrom('data_sources').select(['definition', 'modified_time']).where('node_code', '=', nodeCode).executeTakeFirst();
  const parsed = row ? contracts.DataSourceDefinition.safeParse(row.definition) : undefined;
  return { definition: parsed?.success ? parsed.data : null, modifiedTime: row ? new Date(row.modified_time).toISOString() : null };
}

export async function loadDataSource(ctx: NodeContext, code: string): Promise<contracts.DataSourceDto> {
  const { edb, node, canDesign } = await dataSourceNodeOf(ctx, code);
  return { code: node.code, displayName: node.display_name, appCode: node.app_code, canDesign, ...(await storedDefinition(edb, node.code)) };
}

/** What the connector must offer for these settings: GET or POST, the list output with its fields, the places. */
async function checkDefinition(edb: EngineExecutor, definition: contracts.DataSourceDefinition) {
  const connector = await getConnectorRowOrThrow(edb, definition.connectorCode);
  const name = connector.name;
  if (connector.method !== 'GET' && connector.method !== 'POST') throw new AppError('DataSourceConnectorMethod', { detail: { name, method: connector.method } });
  const list = connector.outputs.find((o) => o.name === definition.listOutput && o.itemFields && Object.keys(o.itemFields).length);
  if (!list) throw new AppError('DataSourceNoListOutput', { detail: { name, output: definition.listOutput } });
  for (const column of definition.columns) {
    if (!Object.hasOwn(list.itemFields!, column.field)) throw new AppError('DataSourceColumnUnknown', { detail: { output: list.name, field: column.field } });
  }
  const places = new Set(placesOf(connector));
  const used = [...definition.filters.map((f) => f.place), ...(definition.paging ? [definition.paging.pageIndexPlace, definition.paging.pageSizePlace] : [])];
  for (const place of used) if (!places.has(place)) throw new AppError('DataSourcePlaceUnknown', { detail: { name, place } });
  const total = definition.paging?.totalOutput;
  if (total && !connector.outputs.some((o) => o.name === total)) throw new AppError('DataSourceOutputUnknown', { detail: { name, output: total } });
  return connector;
}

export async function saveDataSource(ctx: NodeContext, body: { nodeCode: string; definition: contracts.DataSourceDefinition }): Promise<contracts.DataSourceDto> {
  const { edb, node, canDesign } = await dataSourceNodeOf(ctx, body.nodeCode);
  if (!canDesign) throw new AppError('DataSourceDesignDenied');
  await requireInstalledPlugin(edb, 'connector');
  await checkDefinition(edb, body.definition);
  const definition = JSON.stringify(body.definition);
  await edb
    .insertInto('data_sources')
    .values({ node_code: node.code, definition, modified_by: ctx.userId })
    .onConflict((oc) => oc.column('node_code').doUpdateSet({ definition, modified_by: ctx.userId, modified_time: new Date() }))
    .execute();
  return loadDataSource(ctx, node.code);
}

const cell = (value: unknown) => (value !== null && typeof value === 'object' ? JSON.stringify(value) : (value ?? null));

/** One page: the connector called with the filters and the page's places, its list's columns, and the total. */
export async function queryDataSource(ctx: NodeContext, body: { nodeCode: string; pageIndex: number; pageSize: number; filters: Record<string, string> }, deps: OutsideDeps): Promise<contracts.DataSourceQueryResult> {
  const { edb, node } = await dataSourceNodeOf(ctx, body.nodeCode);
  const { definition } = await storedDefinition(edb, node.code);
  if (!definition) throw new AppError('DataSourceNotConfigured', { detail: { name: node.display_name } });
  await requireInstalledPlugin(edb, 'connector');
  const offered = new Set(definition.filters.map((f) => f.place));
  for (const place of Object.keys(body.filters)) if (!offered.has(place)) throw new AppError('DataSourceFilterUnknown', { detail: { place } });
  // The settings are checked again: the connector may have changed since they were saved.
  await checkDefinition(edb, definition);
  const values: Record<string, unknown> = Object.fromEntries(definition.filters.map((f) => [f.place, (body.filters[f.place] ?? '').trim()]));
  const paging = definition.paging;
  if (paging) {
    values[paging.pageIndexPlace] = body.pageIndex + paging.firstPage;
    values[paging.pageSizePlace] = body.pageSize;
  }
  const { outputs } = await callConnector(edb, ctx.engineCode, definition.connectorCode, values, deps, 'button');
  const list = outputs[definition.listOutput];
  if (list !== null && list !== undefined && !Array.isArray(list)) throw new AppError('DataSourceAnswerNotList', { detail: { output: definition.listOutput } });
  const items = (list ?? []) as Record<string, unknown>[];
  // Without paging at the outside system the whole list is one answer: the page is cut here.
  const shown = paging ? items.slice(0, body.pageSize) : items.slice(body.pageIndex * body.pageSize, (body.pageIndex + 1) * body.pageSize);
  const rows = shown.map((item) => Object.fromEntries(definition.columns.map((c) => [c.field, cell(item?.[c.field])])));
  const totalValue = paging?.totalOutput ? Number(outputs[paging.totalOutput]) : NaN;
  const total = Number.isFinite(totalValue) && totalValue >= 0 ? Math.floor(totalValue) : paging ? body.pageIndex * body.pageSize + items.length + (items.length >= body.pageSize ? 1 : 0) : items.length;
  return { columns: definition.columns, rows, total };
}

/** GET and POST connectors with a list output: the designer's choices (names only, nothing secret). */
export async function dataSourceConnectors(edb: EngineExecutor): Promise<contracts.DataSourceConnectorsResult> {
  const rows = await edb.selectFrom('connectors as c').innerJoin('connections as n', 'n.code', 'c.connection_code').select(['c.code', 'c.name', 'c.method', 'c.path', 'c.params', 'c.outputs', 'n.name as connection_name']).where('c.method', 'in', ['GET', 'POST']).orderBy('c.name').execute();
  return {
    items: rows
      .map((r) => ({
        code: r.code,
        name: r.name,
        connectionName: r.connection_name,
        method: r.method,
        lists: r.outputs.filter((o) => o.itemFields && Object.keys(o.itemFields).length).map((o) => ({ name: o.name, fields: Object.keys(o.itemFields!) })),
        outputs: r.outputs.map((o) => o.name),
        places: placesOf(r),
      }))
      .filter((c) => c.lists.length),
  };
}

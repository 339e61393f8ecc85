import type { contracts } from '@tritium/shared';
import type { BoardDefinition, Widget } from '@tritium/shared/report/index';
import type { FilterNode } from '@tritium/shared/query/index';
import { apiClient } from '../../../lib/api-client.ts';
import { downloadSigned } from '../../../lib/signed-download.ts';

// Reports and dashboards (issue 22; docs/decisions/0044): the board of a node, and the numbers of one widget.

export type BoardDto = contracts.BoardDto;
export type ReportData = contracts.ReportDataResult;

export const dashboardKeys = {
  board: (code: string) => ['dashboard', 'board', code] as const,
  /** Every widget's numbers: refreshed together (the refresh button, auto refresh). */
  data: ['dashboard', 'data'] as const,
};

export const dashboardApi = {
  load: (code: string) => apiClient.get<BoardDto>('/v1/dashboard/load', { query: { code } }),
  save: (code: string, definition: BoardDefinition) => apiClient.post<BoardDto>('/v1/dashboard/save', { code, definition }),
  // A widget shows its own error in its card rather than a pop-up per widget.
  data: (widget: Widget, filter?: FilterNode, signal?: AbortSignal) =>
    apiClient.post<ReportData>('/v1/report/data', { widget, ...(filter ? { filter } : {}) }, { signal, disableBizError: true }),
  fields: (schemaCode: string) => apiClient.get<contracts.ReportFieldsResult>('/v1/report/fields', { query: { schemaCode } }),
  distinct: (schemaCode: string, field: string) =>
    apiClient.post<contracts.DistinctValueResult>('/v1/bizdata/distinctPropertyValue', { schemaCode, field, pageIndex: 0, pageSize: 200 }, { disableBizError: true }),
};

type WorkbenchConfig = contracts.WorkbenchConfig;
type FeatureList = import('zod').infer<typeof contracts.FeatureListResult>;

/** The workbench's configuration calls (calls.md §7), for pinning a dashboard; the workbench reads the same key. */
export const workbenchConfigKey = ['workbench', 'config'] as const;
export const pinApi = {
  config: () => apiClient.get<{ config: WorkbenchConfig; isDefault: boolean }>('/v1/workbench/config'),
  save: (config: WorkbenchConfig) => apiClient.post<{ config: WorkbenchConfig; isDefault: boolean }>('/v1/workbench/saveconfig', config),
};

/** The nodes of an app (its forms are a widget's sources). */
export const appFeatures = (appCode: string) => apiClient.get<FeatureList>('/v1/functionNode/app/feature/list', { query: { appCode } });

/** A table's numbers as .xlsx: the bytes come to a signed-in call, fetched with the session's headers and saved. */
export async function downloadWidget(widget: Widget, filter: FilterNode | undefined): Promise<void> {
  const body = JSON.stringify({ widget, ...(filter ? { filter } : {}) });
  await downloadSigned('/v1/report/export', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }, `${widget.title || 'report'}.xlsx`, 'spreadsheetml');
}

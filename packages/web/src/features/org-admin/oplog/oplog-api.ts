import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';
import { downloadSigned } from '../../../lib/signed-download.ts';

// The operation log (docs/decisions/0113): Administrators only.

export type OplogEntry = contracts.OplogEntryDto;
export type OplogKind = contracts.OplogKind;
export type OplogVerifyResult = contracts.OplogVerifyResult;
export interface OplogFilter {
  from?: string;
  to?: string;
  userId?: string;
  kind?: OplogKind;
  text?: string;
}
type ListResult = { list: OplogEntry[]; total: number; hasMore: boolean };

export const oplogKeys = {
  all: ['oplog'] as const,
  list: (filter: OplogFilter, pageIndex: number, pageSize: number) => ['oplog', 'list', filter, pageIndex, pageSize] as const,
};

/** The filter as query parameters: only what is set. */
const queryOf = (filter: OplogFilter): Record<string, string> => Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''));

export const oplogApi = {
  list: (filter: OplogFilter, pageIndex: number, pageSize: number) =>
    apiClient.get<ListResult>('/v1/admin/oplog/list', { query: { ...queryOf(filter), pageIndex: String(pageIndex), pageSize: String(pageSize) } }),
  verify: () => apiClient.post<OplogVerifyResult>('/v1/admin/oplog/verify'),
};

/** The filtered log as .xlsx: the bytes come to a signed-in call, fetched with the session's headers and saved. */
export async function downloadOplog(filter: OplogFilter, fileName: string): Promise<void> {
  await downloadSigned(`/v1/admin/oplog/export?${new URLSearchParams(queryOf(filter))}`, {}, fileName, 'spreadsheetml');
}

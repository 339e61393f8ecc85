import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';

export type OrgItemDto = z.infer<typeof contracts.OrgItemDto>;
export type OrgSearchBody = z.input<typeof contracts.OrgSearchBody>;
export type OrgSearchResult = z.infer<typeof contracts.OrgSearchResult>;
export type OrgListBody = z.input<typeof contracts.OrgListBody>;
export type OrgListResult = z.infer<typeof contracts.OrgListResult>;

/**
 * Query keys of the picker's reads. Every organisation key starts with 'org', so a change made in the admin
 * console (which invalidates ['org']) also refreshes an open picker.
 */
export const pickerKeys = {
  search: (body: OrgSearchBody) => ['org', 'picker', 'search', body] as const,
  children: (body: OrgListBody) => ['org', 'picker', 'children', body] as const,
};

export const pickerApi = {
  search: (body: OrgSearchBody, signal?: AbortSignal) => apiClient.post<OrgSearchResult>('/v1/org/search', body, { signal }),
  /** Sub-departments first (in sort order), then the members of parentId; without parentId the scope's roots. */
  listChildren: (body: OrgListBody, signal?: AbortSignal) => apiClient.post<OrgListResult>('/v1/org/list', body, { signal }),
};

import { useEffect, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { contracts } from '@tritium/shared';
import { SEARCH_KEYWORD_MIN } from '@tritium/shared/contracts/search/index';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { apiClient } from '../../lib/api-client.ts';

export type NodeSearchHit = contracts.NodeSearchHit;
export type RecordSearchGroup = contracts.RecordSearchGroup;
export type RecordSearchHit = contracts.RecordSearchHit;

/** Hits per page of the record search. */
export const RECORD_PAGE_SIZE = 10;
/** Typing pauses this long before a search goes out. */
const DEBOUNCE_MS = 250;

// The box shows its own errors (a line in the result list), so the global pop-ups stay quiet.
const quiet = { disableBizError: true, disableSysError: true } as const;

export const searchApi = {
  records: (keyword: string, pageIndex: number) =>
    apiClient.get<contracts.FulltextSearchResult>('/v1/toolkit/fulltext/search', { ...quiet, query: { keyword, pageIndex, pageSize: RECORD_PAGE_SIZE } }),
  nodes: (keyword: string) => apiClient.get<contracts.NodeSearchResult>('/v1/fulltextsearch/nodes', { ...quiet, query: { keyword } }),
};

export const searchKeys = {
  nodes: (keyword: string) => ['search', 'nodes', keyword] as const,
  records: (keyword: string) => ['search', 'records', keyword] as const,
};

/** Whether a keyword is long enough to search (the server's rule, 350001 below it). */
export const isSearchable = (keyword: string) => [...keyword.trim()].length >= SEARCH_KEYWORD_MIN;

/** The value once it has stopped changing for a moment. */
export function useDebounced<T>(value: T, ms = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Node and record search for one keyword, run together; record pages load on demand. */
export function useGlobalSearch(keyword: string) {
  const enabled = isSearchable(keyword);
  const nodes = useQuery({ queryKey: searchKeys.nodes(keyword), queryFn: () => searchApi.nodes(keyword), enabled, staleTime: 10_000 });
  const records = useInfiniteQuery({
    queryKey: searchKeys.records(keyword),
    queryFn: ({ pageParam }) => searchApi.records(keyword, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.hasMore ? last.pageIndex + 1 : undefined),
    enabled,
    staleTime: 10_000,
  });
  return { enabled, nodes, records, groups: mergeGroups(records.data?.pages.flatMap((p) => p.list) ?? []) };
}

/** Groups of several pages as one list: a form met again on a later page adds its hits to its first group. */
export function mergeGroups(groups: RecordSearchGroup[]): RecordSearchGroup[] {
  const bySchema = new Map<string, RecordSearchGroup>();
  for (const group of groups) {
    const known = bySchema.get(group.schemaCode);
    if (known) known.hits = [...known.hits, ...group.hits];
    else bySchema.set(group.schemaCode, { ...group, hits: [...group.hits] });
  }
  return [...bySchema.values()];
}

/** Where a node opens (the workbench's app page, with the node selected). */
export const nodeSearchPath = (node: Pick<NodeSearchHit, 'code' | 'appCode' | 'nodeType'>) =>
  node.nodeType === FunctionNodeType.AppPackage ? `/workbench/app/${node.code}` : `/workbench/app/${node.appCode}/${node.code}`;

/** Where a record opens: the form runtime's page, as the flow center and reminders open one. */
export const recordSearchPath = (schemaCode: string, objectId: string) => `${FORM_RUNTIME_PATH}/${schemaCode}/${objectId}`;

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';

export type FlowCenterTab = contracts.FlowCenterTab;
export type FlowCenterRow = contracts.FlowCenterRow;
export type FlowCenterListBody = contracts.FlowCenterListBody;
export type FlowCenterListResult = contracts.FlowCenterListResult;
export type RapidApproveResult = contracts.RapidApproveResult;
type TodosCount = z.infer<typeof contracts.WfTodosCountResult>;
type FormsResult = z.infer<typeof contracts.FlowCenterFormsResult>;

/** Query keys: every flow-center query starts with its group, so one action refreshes the group. */
export const flowKeys = {
  all: ['flow-center'] as const,
  counts: ['flow-center', 'counts'] as const,
  list: (body: FlowCenterListBody) => ['flow-center', 'list', body] as const,
  forms: ['flow-center', 'forms'] as const,
};

// Badges are quiet: a count that cannot be read is not worth a pop-up.
const quiet = { disableBizError: true, disableSysError: true } as const;

export const flowCenterApi = {
  list: (body: FlowCenterListBody, options: { quiet?: boolean } = {}) => apiClient.post<FlowCenterListResult>('/v1/workflow/todos/list', body, options.quiet ? quiet : undefined),
  forms: () => apiClient.get<FormsResult>('/v1/workflow/todos/forms'),
  todoCount: () => apiClient.get<TodosCount>('/v1/workflow/todos/count', quiet),
  unfinishedCount: () => apiClient.get<{ count: number }>('/v1/workflow/todos/unfinished/count', quiet),
  rapidApprove: (workItemIds: string[], text: string) =>
    apiClient.post<RapidApproveResult>('/v1/workflow/todos/rapid-approve', { workItemIds, ...(text.trim() ? { opinion: { text: text.trim() } } : {}) }),
};

// Counts refresh now and then while the page is open, so a todo that arrives elsewhere shows up.
const POLL_MS = 60_000;

/** The badge counts: todo and to-read items, unfinished flows I started. */
export function useFlowCounts() {
  return useQuery({
    queryKey: flowKeys.counts,
    queryFn: async () => {
      const [items, unfinished] = await Promise.all([flowCenterApi.todoCount(), flowCenterApi.unfinishedCount()]);
      return { todo: items.todo, toRead: items.toRead, apply: unfinished.count };
    },
    refetchInterval: POLL_MS,
  });
}

export function useFlowList(body: FlowCenterListBody, options: { quiet?: boolean } = {}) {
  return useQuery({ queryKey: flowKeys.list(body), queryFn: () => flowCenterApi.list(body, options), placeholderData: keepPreviousData });
}

export function useFlowForms() {
  return useQuery({ queryKey: flowKeys.forms, queryFn: flowCenterApi.forms });
}

export function useRapidApprove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ workItemIds, text }: { workItemIds: string[]; text: string }) => flowCenterApi.rapidApprove(workItemIds, text),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: flowKeys.all }),
  });
}

export { badgeText } from '../../lib/badge-text.ts';

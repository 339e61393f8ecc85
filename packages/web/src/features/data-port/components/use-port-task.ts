import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { runtimeKeys } from '../../form-runtime/api/runtime-api.ts';
import { dataPortApi, dataPortKeys, FINAL_STATES, type PortTask } from '../api/data-port-api.ts';

/** A task followed until it ends (polled every 800 ms while Waiting or Running). */
export function usePortTask(taskId: string | null, intervalMs = 800) {
  return useQuery<PortTask | undefined>({
    queryKey: dataPortKeys.task(taskId ?? ''),
    queryFn: () => dataPortApi.task(taskId!),
    enabled: !!taskId,
    refetchInterval: (q) => (q.state.data && FINAL_STATES.has(q.state.data.state) ? false : intervalMs),
  });
}

/**
 * When an import has ended, the form's lists and counts (every query under runtimeKeys.records) are read again: the
 * records it wrote show at once, without a reload.
 */
export function useRecordsRefreshWhenDone(schemaCode: string, task: PortTask | undefined) {
  const queryClient = useQueryClient();
  const ended = task && FINAL_STATES.has(task.state) ? task.taskId : null;
  useEffect(() => {
    if (!ended) return;
    void queryClient.invalidateQueries({ queryKey: runtimeKeys.records(schemaCode) });
  }, [ended, schemaCode, queryClient]);
}

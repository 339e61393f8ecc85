import { useQuery } from '@tanstack/react-query';
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

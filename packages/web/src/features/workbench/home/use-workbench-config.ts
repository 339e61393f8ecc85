import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appKeys, appsApi, type WorkbenchConfig } from '../../apps/api/apps-api.ts';

/** The person's workbench layout (their saved one, or the default). */
export function useWorkbenchConfig() {
  return useQuery({ queryKey: appKeys.config, queryFn: appsApi.config });
}

export function useSaveWorkbenchConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: WorkbenchConfig) => appsApi.saveConfig(config),
    onSuccess: (result) => queryClient.setQueryData(appKeys.config, result),
  });
}

/** What the person opened lately; shortcuts read the same answer, ordered by how often. */
export function useRecentActivity() {
  return useQuery({ queryKey: appKeys.recent, queryFn: () => appsApi.recentActivity(20) });
}

import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { workflowApi, workflowKeys, type FieldPermission, type MyWorkItem } from './workflow-api.ts';

/**
 * The flow a record runs in, as the caller meets it: their open item (the one the form acts on: a fill or approve
 * item before a to-read one), the buttons it offers, the instance's actions and the node's field permissions.
 */
export function useWorkflow(instanceId: string | null) {
  const info = useQuery({
    queryKey: workflowKeys.info(instanceId ?? ''),
    queryFn: () => workflowApi.info(instanceId!),
    enabled: !!instanceId,
    staleTime: 0,
  });
  const item: MyWorkItem | null = useMemo(() => {
    const items = info.data?.myItems ?? [];
    return items.find((i) => i.itemType !== 'circulate') ?? items[0] ?? null;
  }, [info.data]);
  /** The handler edits a fill or approve item; a to-read item only reads. */
  const handling = !!item && item.itemType !== 'circulate';
  const permissionOf = useMemo(() => {
    if (!handling || !item) return undefined;
    return (code: string): FieldPermission => item.fieldPermissions[code] ?? item.defaultFieldPermission;
  }, [handling, item]);
  return { info, item, handling, permissionOf, instanceActions: info.data?.instanceActions ?? [] };
}

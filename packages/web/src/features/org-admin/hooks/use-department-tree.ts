import { useState } from 'react';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { orgAdminApi, orgKeys, type DepartmentDto, type DepartmentListBody, type DepartmentListResult, type OrgSide } from '../api/org-admin-api.ts';

// The tree reads one level at a time; -1 is every child (the server caps it at 5,000).
const childrenBody = (side: OrgSide, parentId: string | null): DepartmentListBody =>
  parentId ? { parentId, pageIndex: 0, pageSize: -1 } : { scope: side, pageIndex: 0, pageSize: -1 };

export const departmentChildrenQuery = (side: OrgSide, parentId: string | null) => ({
  queryKey: orgKeys.departmentChildren(side, parentId),
  queryFn: ({ signal }: { signal: AbortSignal }) => orgAdminApi.listDepartments(childrenBody(side, parentId), signal),
});

export interface DepartmentMove {
  department: DepartmentDto;
  toParentId: string;
}

type ListCache = DepartmentListResult | undefined;

/**
 * The department tree of one side: the root, then the children of every expanded department, each level a
 * cached query. Moves show at once and are put back when the server refuses them.
 */
export function useDepartmentTree(side: OrgSide) {
  const queryClient = useQueryClient();
  const [expandedKeys, setExpandedKeys] = useState<string[]>([]);
  const roots = useQuery(departmentChildrenQuery(side, null));
  const levels = useQueries({ queries: expandedKeys.map((id) => departmentChildrenQuery(side, id)) });
  const childrenOf = new Map<string, DepartmentDto[]>();
  expandedKeys.forEach((id, index) => {
    const list = levels[index]?.data?.list;
    if (list) childrenOf.set(id, list);
  });

  const loadChildren = (parentId: string) => queryClient.ensureQueryData(departmentChildrenQuery(side, parentId));
  const expand = (id: string) => setExpandedKeys((keys) => (keys.includes(id) ? keys : [...keys, id]));

  const move = useMutation({
    mutationFn: ({ department, toParentId }: DepartmentMove) => orgAdminApi.moveDepartment({ id: department.id, parentId: toParentId }),
    onMutate: async ({ department, toParentId }: DepartmentMove) => {
      await queryClient.cancelQueries({ queryKey: orgKeys.departments });
      const fromKey = orgKeys.departmentChildren(side, department.parentId);
      const toKey = orgKeys.departmentChildren(side, toParentId);
      const saved = [fromKey, toKey].map((key) => [key, queryClient.getQueryData<DepartmentListResult>(key)] as const);
      queryClient.setQueryData<ListCache>(fromKey, (old) => old && { ...old, list: old.list.filter((d) => d.id !== department.id) });
      queryClient.setQueryData<ListCache>(toKey, (old) => old && { ...old, list: [...old.list, { ...department, parentId: toParentId }] });
      return { saved };
    },
    // The server said no: every level goes back to what it showed before the drop.
    onError: (_error, _move, context) => context?.saved.forEach(([key, data]) => queryClient.setQueryData(key, data)),
    onSuccess: (_result, { toParentId }) => expand(toParentId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orgKeys.all }),
  });

  return { roots, childrenOf, expandedKeys, setExpandedKeys, expand, loadChildren, move };
}

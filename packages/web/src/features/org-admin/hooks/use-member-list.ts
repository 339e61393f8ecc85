import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ORG_LIST_PAGING } from '@tritium/shared/constants/limits';
import { PAGE_SIZE_OPTIONS } from '@tritium/shared/constants/views';
import { orgAdminApi, orgKeys, type AssociationDto, type UserListBody } from '../api/org-admin-api.ts';

// domain.md §9 page sizes; 1 and 5 are for embedded lists, not a member table.
export const MEMBER_PAGE_SIZES = PAGE_SIZE_OPTIONS.filter((size) => size >= 10);
// contracts/org/queries.ts: association/list takes at most 200 users per call.
const LINKS_BATCH = 200;

async function departmentLinksOf(userIds: string[], signal: AbortSignal): Promise<Map<string, AssociationDto[]>> {
  const batches: string[][] = [];
  for (let i = 0; i < userIds.length; i += LINKS_BATCH) batches.push(userIds.slice(i, i + LINKS_BATCH));
  const answers = await Promise.all(batches.map((ids) => orgAdminApi.listDepartmentLinks(ids, signal)));
  const byUser = new Map<string, AssociationDto[]>();
  for (const link of answers.flatMap((a) => a.list)) byUser.set(link.userId, [...(byUser.get(link.userId) ?? []), link]);
  return byUser;
}

/**
 * The members of one department (not its sub-departments), disabled ones included so they can be enabled again;
 * searched by name, pinyin, initials or mobile; paged from pageIndex 0 (calls.md §9). Each member's departments
 * come from a second call, so the table can show all of them with the main one marked.
 */
export function useMemberList(departmentId: string | undefined) {
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ pageIndex: ORG_LIST_PAGING.from as number, pageSize: ORG_LIST_PAGING.pageSize as number });
  const [shownFor, setShownFor] = useState(departmentId);
  // Another department starts at its first page with no search, during the same render (no flash of the old page).
  if (shownFor !== departmentId) {
    setShownFor(departmentId);
    setKeyword('');
    setPage((p) => ({ ...p, pageIndex: 0 }));
  }

  const body: UserListBody = { departmentId, keyword: keyword || undefined, state: 'all', ...page };
  const users = useQuery({
    queryKey: orgKeys.users(body),
    queryFn: ({ signal }) => orgAdminApi.listUsers(body, signal),
    enabled: !!departmentId,
    placeholderData: keepPreviousData,
  });
  const userIds = users.data?.list.map((u) => u.id) ?? [];
  const links = useQuery({
    queryKey: orgKeys.associations(userIds),
    queryFn: ({ signal }) => departmentLinksOf(userIds, signal),
    enabled: userIds.length > 0,
    placeholderData: keepPreviousData,
  });

  const search = (next: string) => {
    setKeyword(next.trim());
    setPage((p) => ({ ...p, pageIndex: 0 }));
  };
  const changePage = (current: number, pageSize: number) =>
    // A new page size starts over: the old page number means other rows at another size.
    setPage((p) => ({ pageSize, pageIndex: pageSize === p.pageSize ? current - 1 : 0 }));

  return { users, links: links.data, keyword, search, page, changePage };
}

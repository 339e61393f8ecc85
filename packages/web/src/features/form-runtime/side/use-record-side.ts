import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sideKeys, snsApi, taskTipApi, type SnsAddBody, type SnsReplyBody, type TaskTipAddBody } from './sns-api.ts';

/** A record's comments, newest first, a page at a time. */
export function useComments(schemaCode: string, objectId: string) {
  return useInfiniteQuery({
    queryKey: sideKeys.comments(schemaCode, objectId),
    queryFn: ({ pageParam }) => snsApi.list(schemaCode, objectId, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length : undefined),
  });
}

/** The comment calls that change the list; each refreshes the record's side panels. */
export function useCommentActions(schemaCode: string, objectId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: sideKeys.record(schemaCode, objectId) });
  return {
    add: useMutation({ mutationFn: (body: Omit<SnsAddBody, 'schemaCode' | 'objectId'>) => snsApi.add({ ...body, schemaCode, objectId }), onSuccess }),
    reply: useMutation({ mutationFn: (body: SnsReplyBody) => snsApi.reply(body), onSuccess }),
    remove: useMutation({ mutationFn: (snsId: string) => snsApi.remove(snsId), onSuccess }),
  };
}

export function useTaskTips(schemaCode: string, objectId: string) {
  return useQuery({ queryKey: sideKeys.taskTips(schemaCode, objectId), queryFn: () => taskTipApi.list(schemaCode, objectId) });
}

export function useTaskTipActions(schemaCode: string, objectId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: sideKeys.record(schemaCode, objectId) });
  return {
    add: useMutation({ mutationFn: (body: Omit<TaskTipAddBody, 'schemaCode' | 'objectId'>) => taskTipApi.add({ ...body, schemaCode, objectId }), onSuccess }),
    cancel: useMutation({ mutationFn: (id: string) => taskTipApi.cancel(id), onSuccess }),
    remove: useMutation({ mutationFn: (id: string) => taskTipApi.remove(id), onSuccess }),
  };
}

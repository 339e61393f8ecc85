import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';

// Comments and task tips of a record (docs/decisions/0009): one call per operation, typed by the shared contracts.

export type CommentDto = contracts.CommentDto;
export type CommentThread = contracts.CommentThread;
export type SnsListResult = contracts.SnsListResult;
export type SnsAddBody = contracts.SnsAddBody;
export type SnsReplyBody = contracts.SnsReplyBody;
export type TaskTipDto = contracts.TaskTipDto;
export type TaskTipAddBody = contracts.TaskTipAddBody;
export type TaskTipListResult = contracts.TaskTipListResult;

/** Every key of a record's side panels starts with ['record-side', schemaCode, objectId], so one invalidation refreshes them. */
export const sideKeys = {
  record: (schemaCode: string, objectId: string) => ['record-side', schemaCode, objectId] as const,
  comments: (schemaCode: string, objectId: string) => ['record-side', schemaCode, objectId, 'comments'] as const,
  taskTips: (schemaCode: string, objectId: string) => ['record-side', schemaCode, objectId, 'task-tips'] as const,
};

export const COMMENTS_PAGE_SIZE = 20;

export const snsApi = {
  // The panel shows "comments are off" (and other refusals of the list) itself, in place of the list.
  list: (schemaCode: string, objectId: string, pageIndex: number) =>
    apiClient.post<SnsListResult>('/v1/toolkit/sns/list', { schemaCode, objectId, pageIndex, pageSize: COMMENTS_PAGE_SIZE }, { disableBizError: true }),
  count: (schemaCode: string, objectId: string) => apiClient.post<contracts.SnsCountResult>('/v1/toolkit/sns/count', { schemaCode, objectId }),
  add: (body: SnsAddBody) => apiClient.post<CommentDto>('/v1/toolkit/sns/add', body),
  reply: (body: SnsReplyBody) => apiClient.post<CommentDto>('/v1/toolkit/sns/comment/add', body),
  remove: (snsId: string) => apiClient.delete<contracts.SnsRemoveResult>('/v1/toolkit/sns/remove', { query: { snsId } }),
};

export const taskTipApi = {
  list: (schemaCode: string, objectId: string) => apiClient.post<TaskTipListResult>('/v1/tasktip/list', { schemaCode, objectId }, { disableBizError: true }),
  add: (body: TaskTipAddBody) => apiClient.post<TaskTipDto>('/v1/tasktip/add', body),
  cancel: (id: string) => apiClient.post<TaskTipDto>('/v1/tasktip/cancel', { id }),
  remove: (id: string) => apiClient.post<{ removed: boolean }>('/v1/tasktip/remove', { id }),
};

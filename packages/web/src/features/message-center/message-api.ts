import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// The message center's calls (calls.md "Reminders and messages": POST /v1/toolkit/internalmessage/list, read, count).

export type MessageDto = contracts.InternalMessageDto;
export type MessageListBody = contracts.InternalMessageListBody;
export type MessageState = 'unread' | 'read' | 'all';

export const messageKeys = {
  all: ['messages'] as const,
  count: ['messages', 'count'] as const,
  list: (body: MessageListBody) => ['messages', 'list', body] as const,
};

// The badge is quiet: a count that cannot be read is not worth a pop-up.
const quiet = { disableBizError: true, disableSysError: true } as const;

export const messageApi = {
  list: (body: MessageListBody) => apiClient.post<contracts.InternalMessageListResult>('/v1/toolkit/internalmessage/list', body),
  count: () => apiClient.post<contracts.InternalMessageCountResult>('/v1/toolkit/internalmessage/count', {}, quiet),
  read: (body: { messageIds: string[] } | { all: true; category?: string }) => apiClient.post<{ updated: number }>('/v1/toolkit/internalmessage/read', body),
};

/** The unread count; the live stream refreshes it, the slow poll is a fallback when the stream cannot be held. */
export function useMessageCount() {
  return useQuery({ queryKey: messageKeys.count, queryFn: messageApi.count, refetchInterval: 120_000 });
}

export function useMessages(body: MessageListBody, enabled = true) {
  return useQuery({ queryKey: messageKeys.list(body), queryFn: () => messageApi.list(body), placeholderData: keepPreviousData, enabled });
}

export function useMarkMessagesRead() {
  const client = useQueryClient();
  return useMutation({ mutationFn: messageApi.read, onSuccess: () => client.invalidateQueries({ queryKey: messageKeys.all }) });
}

export { badgeText } from '../../lib/badge-text.ts';

// ---- preferences and the delivery log -----------------------------------------------------------------------------

export type PreferenceResult = contracts.NotificationPreferenceResult;
export type CategoryChannels = contracts.CategoryChannels;
export type DeliveryListBody = contracts.DeliveryListBody;
export type DeliveryDto = contracts.DeliveryDto;

export const preferenceKeys = { all: ['notification-preference'] as const, deliveries: (body: DeliveryListBody) => ['notification-delivery', body] as const };

export const preferenceApi = {
  get: () => apiClient.get<PreferenceResult>('/v1/notification/preference'),
  save: (body: { preferences: CategoryChannels[]; engineDefaults?: boolean }) => apiClient.post<PreferenceResult>('/v1/notification/preference/save', body),
  deliveries: (body: DeliveryListBody) => apiClient.post<contracts.DeliveryListResult>('/v1/notification/delivery/list', body),
};

export function usePreferences() {
  return useQuery({ queryKey: preferenceKeys.all, queryFn: preferenceApi.get });
}

export function useSavePreferences() {
  const client = useQueryClient();
  return useMutation({ mutationFn: preferenceApi.save, onSuccess: (data) => client.setQueryData(preferenceKeys.all, data) });
}

export function useDeliveries(body: DeliveryListBody) {
  return useQuery({ queryKey: preferenceKeys.deliveries(body), queryFn: () => preferenceApi.deliveries(body), placeholderData: keepPreviousData });
}

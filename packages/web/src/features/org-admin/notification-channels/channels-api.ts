import type { contracts } from '@tritium/shared';
import { App } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiClient } from '../../../lib/api-client.ts';

// The engine's outside notification channels (issue 20): Administrators only. Secrets are write-only: the server
// answers whether one is set, and a save that leaves it empty keeps it.

export type ChannelListResult = contracts.ChannelListResult;
export type EmailChannelDto = contracts.EmailChannelDto;
export type SmsChannelDto = contracts.SmsChannelDto;
export type RobotDto = contracts.RobotDto;
export type RobotPlatform = contracts.RobotPlatform;
export type EmailChannelSaveBody = contracts.EmailChannelSaveBody;
export type SmsChannelSaveBody = contracts.SmsChannelSaveBody;
export type RobotAddBody = contracts.RobotAddBody;
export type RobotUpdateBody = contracts.RobotUpdateBody;
export type ChannelTestBody = contracts.ChannelTestBody;
export type ChannelTestResult = contracts.ChannelTestResult;

export const ROBOT_PLATFORMS: RobotPlatform[] = ['dingtalk', 'wecom', 'feishu'];

export const channelKeys = { list: ['notification-channels'] as const };

const base = '/v1/notification/channel';

export const channelsApi = {
  list: () => apiClient.get<ChannelListResult>(`${base}/list`),
  saveEmail: (body: EmailChannelSaveBody) => apiClient.post<ChannelListResult>(`${base}/email/save`, body),
  saveSms: (body: SmsChannelSaveBody) => apiClient.post<ChannelListResult>(`${base}/sms/save`, body),
  addRobot: (body: RobotAddBody) => apiClient.post<RobotDto>(`${base}/robot/add`, body),
  updateRobot: (body: RobotUpdateBody) => apiClient.post<RobotDto>(`${base}/robot/update`, body),
  removeRobot: (id: string) => apiClient.post<{ id: string }>(`${base}/robot/remove`, { id }),
  test: (body: ChannelTestBody) => apiClient.post<ChannelTestResult>(`${base}/test`, body),
};

/** An empty secret field means "keep the stored one": it is left out of the body. */
export const secretOrUndefined = (value: string | undefined) => (value ? value : undefined);

/** Saves a channel's form: the answer is the new channel list, and the page says it was saved. */
export function useSaveChannel<T>(save: (values: T) => Promise<ChannelListResult>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: (result) => {
      queryClient.setQueryData(channelKeys.list, result);
      void message.success(t('notificationChannels.saved'));
    },
  });
}

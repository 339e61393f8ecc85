import { App as AntApp } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { orgKeys } from '../api/org-admin-api.ts';

/** Asks before removing a role group, role or post, says what goes with it, then reloads the organisation. */
export function useRemoveConfirm() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const queryClient = useQueryClient();
  return (options: { title: string; content: string; remove: () => Promise<unknown>; onRemoved?: () => void }) =>
    modal.confirm({
      title: options.title,
      content: options.content,
      okText: t('orgAdmin.remove'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await options.remove();
        } catch {
          return; // The API client has shown the refusal (a role group that still has roles).
        }
        void message.success(t('orgAdmin.removed'));
        options.onRemoved?.();
        await queryClient.invalidateQueries({ queryKey: orgKeys.all });
      },
    });
}

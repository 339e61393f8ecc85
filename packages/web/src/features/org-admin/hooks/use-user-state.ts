import { App as AntApp } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { orgAdminApi, orgKeys, type UserDto } from '../api/org-admin-api.ts';

/**
 * 停用 and 启用, each asked first. Disabling ends the person's sessions at once (the server re-reads the user on
 * every request, docs/decisions/0003), so the question says so.
 */
export function useUserState() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const queryClient = useQueryClient();

  const confirm = (action: 'disable' | 'enable', user: UserDto) => {
    const isDisable = action === 'disable';
    modal.confirm({
      title: isDisable ? t('orgAdmin.member.disableTitle', { name: user.name }) : t('orgAdmin.member.enableTitle', { name: user.name }),
      content: isDisable ? t('orgAdmin.member.disableContent') : t('orgAdmin.member.enableContent'),
      okText: isDisable ? t('orgAdmin.member.disable') : t('orgAdmin.member.enable'),
      okButtonProps: { danger: isDisable },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await (isDisable ? orgAdminApi.disableUser(user.id) : orgAdminApi.enableUser(user.id));
        } catch {
          // The API client has shown why (last administrator, yourself); the dialog just closes.
          return;
        }
        void message.success(isDisable ? t('orgAdmin.member.disabledDone', { name: user.name }) : t('orgAdmin.member.enabledDone', { name: user.name }));
        await queryClient.invalidateQueries({ queryKey: orgKeys.all });
      },
    });
  };
  return { confirm };
}

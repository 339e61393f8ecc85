import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { setNotifier } from '../lib/notifier.ts';
import { useAppPopups } from '../lib/use-app-popups.ts';

/** Connects the API client's pop-ups to antd's themed message and notification. */
export function NotifierBridge() {
  const { message, notification } = useAppPopups();
  const { t } = useTranslation();
  useEffect(() => {
    setNotifier({
      // Keyed by code so a burst of identical failures shows one toast.
      bizError: (error) => void message.error({ content: error.errorMessage, key: `biz-${error.errorCode}` }),
      sysError: (error) =>
        notification.error({
          key: `sys-${error.errorCode}`,
          title: error.errorTitle,
          description: error.requestId ? `${error.errorMessage} ${t('errors.requestId', { id: error.requestId })}` : error.errorMessage,
        }),
    });
    return () => setNotifier(undefined);
  }, [message, notification, t]);
  return null;
}

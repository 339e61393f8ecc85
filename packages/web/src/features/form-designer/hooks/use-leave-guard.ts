import { useEffect, useRef } from 'react';
import { App as AntApp } from 'antd';
import { useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Leaving the designer with unsaved changes asks first (in-app navigation; the browser asks on reload and close). */
export function useLeaveGuard(dirty: boolean) {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  // The blocker object changes on every render; the question is asked once per blocked navigation.
  const current = useRef(blocker);
  current.current = blocker;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('formDesigner.leave.title'),
      content: t('formDesigner.leave.content'),
      okText: t('formDesigner.leave.ok'),
      okButtonProps: { danger: true },
      cancelText: t('formDesigner.leave.stay'),
      onOk: () => current.current.proceed?.(),
      onCancel: () => current.current.reset?.(),
    });
  }, [blocker.state, modal, t]);
}

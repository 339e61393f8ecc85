import type { ReactNode } from 'react';
import { ConfigProvider, message, notification, theme } from 'antd';
// The context App.useApp() reads (lib/use-app-popups.ts), provided here without antd's App (see SignInApp).
import AppContext, { type useAppProps } from 'antd/es/app/context';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { antdLocale, i18n } from '../lib/i18n.ts';
import { appTheme } from '../lib/theme.ts';
import { NotifierBridge } from './notifier-bridge.tsx';

/**
 * What antd's App gives every page, without its modal (docs/decisions/0036): the text style of .ant-app and, for
 * App.useApp(), themed message and notification. antd's App brings Modal and Skeleton, about 13 kB gzip the sign-in
 * pages never use; pages past sign-in get the whole App around them (app/workbench-frame.tsx).
 */
function SignInApp({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  const app = { message: messageApi, notification: notificationApi, modal: {} } as useAppProps;
  return (
    <AppContext.Provider value={app}>
      <div style={{ minHeight: '100vh', color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>
        {messageHolder}
        {notificationHolder}
        <NotifierBridge />
        {children}
      </div>
    </AppContext.Provider>
  );
}

function LocalizedAntd({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  return (
    // Button labels stay as written (登录, not 登 录): people and tests read the same text.
    <ConfigProvider locale={antdLocale(instance.language)} theme={appTheme} button={{ autoInsertSpace: false }}>
      <SignInApp>{children}</SignInApp>
    </ConfigProvider>
  );
}

/**
 * Everything every page needs around it: translations, antd locale and theme, pop-ups. The query cache comes with
 * the pages that query (lib/query-provider.tsx): the login home does without it (docs/decisions/0084).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <LocalizedAntd>{children}</LocalizedAntd>
    </I18nextProvider>
  );
}

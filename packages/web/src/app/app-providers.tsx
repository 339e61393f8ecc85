import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { antdLocale, i18n } from '../lib/i18n.ts';
import { appTheme } from '../lib/theme.ts';
import { NotifierBridge } from './notifier-bridge.tsx';

function LocalizedAntd({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  return (
    // Button labels stay as written (登录, not 登 录): people and tests read the same text.
    <ConfigProvider locale={antdLocale(instance.language)} theme={appTheme} button={{ autoInsertSpace: false }}>
      <AntApp style={{ minHeight: '100vh' }}>
        <NotifierBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

/** Everything a page needs around it: queries, translations, antd locale and theme, pop-ups. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <LocalizedAntd>{children}</LocalizedAntd>
      </I18nextProvider>
    </QueryClientProvider>
  );
}

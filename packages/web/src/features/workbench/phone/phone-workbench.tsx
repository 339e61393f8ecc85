import type { ReactNode } from 'react';
import { theme } from 'antd';
import { AppstoreOutlined, MessageOutlined, NodeIndexOutlined, UserOutlined } from '@ant-design/icons';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UserInfoResult } from '../api/workbench-api.ts';
import { PhoneAppPage } from './phone-app-page.tsx';
import { PhoneHome } from './phone-home.tsx';
import { PhoneMe } from './phone-me.tsx';
import { useLiveEvents } from '../../message-center/use-live-events.ts';
import { FlowCenterPage } from '../../flow-center/flow-center-page.tsx';
import { MessagesBlock } from '../../message-center/messages-block.tsx';

const TABS = [
  { key: '/workbench', title: 'workbench.phone.tabs.home', icon: <AppstoreOutlined /> },
  { key: '/workbench/messages', title: 'workbench.phone.tabs.messages', icon: <MessageOutlined /> },
  { key: '/workbench/flow', title: 'workbench.phone.tabs.flow', icon: <NodeIndexOutlined /> },
  { key: '/workbench/me', title: 'workbench.phone.tabs.me', icon: <UserOutlined /> },
] as const;

/** The workbench on a phone (ui.md "Frames"): bottom tabs 工作台 / 消息 / 流程 / 我的; an app opens full screen. */
export function PhoneWorkbench({ info }: { info: UserInfoResult }) {
  useLiveEvents();
  return (
    <Routes>
      <Route index element={<TabFrame><PhoneHome info={info} /></TabFrame>} />
      <Route path="messages" element={<TabFrame><div style={{ padding: 12 }}><MessagesBlock size={30} /></div></TabFrame>} />
      <Route path="flow" element={<TabFrame><FlowCenterPage /></TabFrame>} />
      <Route path="me" element={<TabFrame><PhoneMe info={info} /></TabFrame>} />
      <Route path="app/:appCode/:nodeCode?" element={<PhoneAppPage />} />
      <Route path="*" element={<TabFrame><PhoneHome info={info} /></TabFrame>} />
    </Routes>
  );
}

function TabFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = TABS.find((tab) => tab.key === pathname.replace(/\/$/, ''))?.key ?? TABS[0].key;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100dvh', background: token.colorBgLayout }}>
      <main style={{ flex: 1, overflowY: 'auto' }}>{children}</main>
      <nav aria-label={t('workbench.phone.tabsLabel')} style={{ display: 'flex', borderTop: `1px solid ${token.colorBorderSecondary}`, background: token.colorBgContainer, paddingBottom: 'env(safe-area-inset-bottom)' }}>
        {TABS.map((tab) => {
          const isActive = tab.key === active;
          return (
            <button
              key={tab.key}
              type="button"
              aria-current={isActive ? 'page' : undefined}
              onClick={() => navigate(tab.key)}
              style={{
                flex: 1,
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'center',
                gap: 2,
                padding: `${token.paddingXS}px 0`,
                border: 'none',
                background: 'none',
                cursor: 'pointer',
                color: isActive ? token.colorPrimary : token.colorTextSecondary,
                fontSize: token.fontSizeSM,
              }}
            >
              <span style={{ fontSize: 22, lineHeight: 1 }}>{tab.icon}</span>
              {t(tab.title)}
            </button>
          );
        })}
      </nav>
    </div>
  );
}

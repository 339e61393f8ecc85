import { App, Avatar, Button, Dropdown } from 'antd';
import { ExportOutlined, HistoryOutlined, InfoCircleOutlined, LogoutOutlined, PlusOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** Inside the DingTalk, WeCom or Feishu client (their web views name themselves in the user agent). */
const inChatClient = () => /DingTalk|wxwork|Lark|Feishu/i.test(navigator.userAgent);

/**
 * Opens this page in the computer's browser, signed in: the session trades itself for a one-use code (decision 0079)
 * and the browser opens the page that takes it.
 */
async function openInBrowser(): Promise<void> {
  const here = `${window.location.pathname}${window.location.search}`;
  const { openPath } = await apiClient.get<contracts.TokenExchangeCode>('/v1/token/exchange', { query: { redirectUrl: here } });
  window.open(`${window.location.origin}${openPath}`, '_blank', 'noopener');
}

const MENU_PATHS: Record<string, string> = { logout: '/entry/logout', 'data-port': '/workbench/data-port', wechat: '/entry/register/wechat' };

/** The user menu at the right of the top bar. */
export function UserMenu({ userName, onShowEngineInfo }: { userName: string; onShowEngineInfo?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const handOff = () => openInBrowser().catch(() => void message.error(t('workbench.openInBrowserFailed')));
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          ...(onShowEngineInfo ? [{ key: 'engine-info', icon: <InfoCircleOutlined />, label: t('workbench.engineInfo') }] : []),
          { key: 'data-port', icon: <HistoryOutlined />, label: t('dataPort.history') },
          { key: 'create-engine', icon: <PlusOutlined />, label: t('workbench.createEngine') },
          { key: 'wechat', icon: <WechatOutlined />, label: t('workbench.bindWechat') },
          ...(inChatClient() ? [{ key: 'open-in-browser', icon: <ExportOutlined />, label: t('workbench.openInBrowser') }] : []),
          { type: 'divider' as const },
          { key: 'logout', icon: <LogoutOutlined />, label: t('workbench.logout') },
        ],
        onClick: ({ key }) => (key === 'engine-info' ? onShowEngineInfo?.() : key === 'open-in-browser' ? void handOff() : navigate(MENU_PATHS[key] ?? '/entry/register/corp')),
      }}
    >
      <Button type="text" aria-label={t('workbench.userMenu')} icon={<Avatar size="small" icon={<UserOutlined />} />}>
        {userName}
      </Button>
    </Dropdown>
  );
}

import { Avatar, Button, Dropdown } from 'antd';
import { HistoryOutlined, InfoCircleOutlined, LogoutOutlined, PlusOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The user menu at the right of the top bar. */
export function UserMenu({ userName, onShowEngineInfo }: { userName: string; onShowEngineInfo?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          ...(onShowEngineInfo ? [{ key: 'engine-info', icon: <InfoCircleOutlined />, label: t('workbench.engineInfo') }] : []),
          { key: 'data-port', icon: <HistoryOutlined />, label: t('dataPort.history') },
          { key: 'create-engine', icon: <PlusOutlined />, label: t('workbench.createEngine') },
          { type: 'divider' as const },
          { key: 'logout', icon: <LogoutOutlined />, label: t('workbench.logout') },
        ],
        onClick: ({ key }) => (key === 'engine-info' ? onShowEngineInfo?.() : navigate(key === 'logout' ? '/entry/logout' : key === 'data-port' ? '/workbench/data-port' : '/entry/register/corp')),
      }}
    >
      <Button type="text" aria-label={t('workbench.userMenu')} icon={<Avatar size="small" icon={<UserOutlined />} />}>
        {userName}
      </Button>
    </Dropdown>
  );
}

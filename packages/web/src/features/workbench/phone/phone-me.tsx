import { Avatar, Button, Flex, Typography, theme } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UserInfoResult } from '../api/workbench-api.ts';
import { EngineInfo } from '../components/engine-info-drawer.tsx';
import { EngineSwitcher } from '../components/engine-switcher.tsx';

/** 我的: who you are, the engine you are in (and the switch to another), signing out. */
export function PhoneMe({ info }: { info: UserInfoResult }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  return (
    <Flex vertical gap="middle" style={{ padding: token.paddingSM }}>
      <Flex align="center" gap="middle">
        <Avatar size={48} icon={<UserOutlined />} />
        <div>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {info.user.name}
          </Typography.Title>
          <Typography.Text type="secondary">{info.user.mobile}</Typography.Text>
        </div>
      </Flex>
      <EngineSwitcher currentEngine={info.currentEngine} />
      <EngineInfo info={info} />
      <Button danger block onClick={() => navigate('/entry/logout')}>
        {t('workbench.logout')}
      </Button>
    </Flex>
  );
}

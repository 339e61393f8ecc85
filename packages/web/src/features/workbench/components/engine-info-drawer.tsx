import { Card, Descriptions, Drawer, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserInfoResult } from '../api/workbench-api.ts';
import { roleKeyOf } from '../role.ts';
import { FeatureSwitchList } from './feature-switch-list.tsx';

/** Where you are and who you are here: the engine, your role, and what the engine has switched on. */
export function EngineInfo({ info }: { info: UserInfoResult }) {
  const { t } = useTranslation();
  const { user, currentEngine } = info;
  return (
    <Flex vertical gap="middle">
      <Card title={t('workbench.currentEngine')} size="small">
        <Descriptions column={1}>
          <Descriptions.Item label={t('workbench.engineName')}>
            {currentEngine.engineName}
            {!currentEngine.isPrimary && <Tag style={{ marginLeft: 8 }}>{t('workbench.external')}</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label={t('workbench.engineCode')}>
            <Typography.Text copyable>{currentEngine.engineCode}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('workbench.role')}>{t(roleKeyOf(user.authType))}</Descriptions.Item>
        </Descriptions>
      </Card>
      <FeatureSwitchList />
    </Flex>
  );
}

export function EngineInfoDrawer({ info, open, onClose }: { info: UserInfoResult; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer open={open} title={t('workbench.engineInfo')} size={420} onClose={onClose}>
      <EngineInfo info={info} />
    </Drawer>
  );
}

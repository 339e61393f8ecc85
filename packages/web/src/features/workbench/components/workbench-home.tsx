import { Card, Descriptions, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserInfoResult } from '../api/workbench-api.ts';
import { roleKeyOf } from '../role.ts';
import { FeatureSwitchList } from './feature-switch-list.tsx';

/** The placeholder main area: who you are, where you are, what is switched on. */
export function WorkbenchHome({ info }: { info: UserInfoResult }) {
  const { t } = useTranslation();
  const { user, currentEngine } = info;
  return (
    <Flex vertical gap="middle">
      <div>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('workbench.greeting', { name: user.name })}
        </Typography.Title>
        <Typography.Text type="secondary">{t('workbench.intro')}</Typography.Text>
      </div>
      <Card title={t('workbench.currentEngine')} size="small">
        <Descriptions column={{ xs: 1, sm: 3 }}>
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

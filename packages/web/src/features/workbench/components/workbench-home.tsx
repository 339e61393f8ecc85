import { useState } from 'react';
import { Button, Card, Flex, Skeleton, Typography, theme } from 'antd';
import { LayoutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { UserInfoResult } from '../api/workbench-api.ts';
import { HOME_COMPONENTS } from '../home/home-components.tsx';
import { WorkbenchConfigDrawer } from '../home/workbench-config-drawer.tsx';
import { useWorkbenchConfig } from '../home/use-workbench-config.ts';
import { UserAuthType } from '@tritium/shared/constants/org';
import { useAppList } from '../../apps/hooks/use-apps.ts';
import { TemplateSuggestions } from '../../template/template-suggestions.tsx';

/** /workbench on PC: a greeting and the blocks of the person's workbench layout, on a 4-column grid. */
export function WorkbenchHome({ info }: { info: UserInfoResult }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const config = useWorkbenchConfig();
  const [isEditing, setEditing] = useState(false);
  const blocks = config.data?.config.components.filter((component) => component.visible) ?? [];
  // A new organisation's empty workbench offers the templates to those who may create apps (docs/decisions/0131).
  const apps = useAppList();
  const canCreateApps = info.user.authType === UserAuthType.Administrator || info.user.authType === UserAuthType.AppCreator;
  return (
    <Flex vertical gap="middle">
      <Flex align="center" justify="space-between" wrap gap="small">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('workbench.greeting', { name: info.user.name })}
          </Typography.Title>
          <Typography.Text type="secondary">{t('workbench.intro', { engine: info.currentEngine.engineName })}</Typography.Text>
        </div>
        <Button icon={<LayoutOutlined />} onClick={() => setEditing(true)} disabled={!config.data}>
          {t('workbench.config.open')}
        </Button>
      </Flex>
      {canCreateApps && apps.data?.list.length === 0 && <TemplateSuggestions />}
      {!config.data && <Skeleton active paragraph={{ rows: 6 }} />}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', gap: token.padding }}>
        {blocks.map((component) => (
          <Card
            key={component.id}
            size="small"
            title={component.title || t(`workbench.components.${HOME_COMPONENTS[component.type].title}`)}
            style={{ gridColumn: `span ${component.width}` }}
          >
            {HOME_COMPONENTS[component.type].render(component)}
          </Card>
        ))}
      </div>
      {config.data && <WorkbenchConfigDrawer open={isEditing} current={config.data.config} onClose={() => setEditing(false)} />}
    </Flex>
  );
}

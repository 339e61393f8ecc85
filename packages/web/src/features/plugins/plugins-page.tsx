import { Flex, Tabs, Typography } from 'antd';
import { AppstoreAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CatalogueTab } from './catalogue-tab.tsx';
import { CustomPluginsTab } from './custom-plugins-tab.tsx';

/**
 * /admin/plugins (插件管理, issue 44, docs/decisions/0123): the platform's plugins with this engine's install state,
 * install with the template's settings, uninstall that keeps the data; and the engine's own plugins with their
 * publication.
 */
export function PluginsPage() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={4} style={{ margin: 0 }}>
        <AppstoreAddOutlined /> {t('plugins.title')}
      </Typography.Title>
      <Tabs items={[{ key: 'catalogue', label: t('plugins.tabs.catalogue'), children: <CatalogueTab /> }, { key: 'custom', label: t('plugins.tabs.custom'), children: <CustomPluginsTab /> }]} />
    </Flex>
  );
}

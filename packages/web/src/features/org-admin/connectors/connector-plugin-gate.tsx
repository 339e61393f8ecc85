import type { ReactNode } from 'react';
import { Button, Result, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { pluginKeys, pluginsApi } from '../../plugins/plugins-api.ts';
import { ConnectorsPage } from './connectors-page.tsx';

/** Shows its children only while the connector plugin is installed; otherwise says to install it first (0123). */
export function ConnectorPluginGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const instances = useQuery({ queryKey: pluginKeys.instances, queryFn: pluginsApi.instances });
  if (!instances.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  const connector = instances.data.items.find((i) => i.code === 'connector');
  if (connector?.status === 'installed') return <>{children}</>;
  return (
    <Result
      status="info"
      title={t('plugins.connectorsNeeded.title')}
      subTitle={t('plugins.connectorsNeeded.description')}
      extra={<Button type="primary" onClick={() => void navigate('/admin/plugins')}>{t('plugins.connectorsNeeded.go')}</Button>}
    />
  );
}

/** /admin/connectors behind the connector plugin. */
export function GatedConnectorsPage() {
  return (
    <ConnectorPluginGate>
      <ConnectorsPage />
    </ConnectorPluginGate>
  );
}

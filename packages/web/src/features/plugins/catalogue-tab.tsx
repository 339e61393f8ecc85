import { useState } from 'react';
import { Alert, App, Button, Card, Col, Flex, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PLUGIN_TEMPLATES, type PluginTemplate } from '@tritium/shared/plugins/catalogue';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { formatDateTime } from '../../lib/date-format.ts';
import { pluginKeys, pluginsApi, type PluginCatalogueItem } from './plugins-api.ts';
import { PluginSettingsDialog } from './plugin-settings-dialog.tsx';
import { textOf } from './plugin-text.ts';

// ui.md: antd's grey is "default".
export const INSTALL_COLORS = { notInstalled: 'default', installing: 'processing', installed: 'success' } as const;

/** One template: its state, provider, what it offers, and install / settings / uninstall. */
function PluginCard({ template, item, onEdit }: { template: PluginTemplate; item: PluginCatalogueItem; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const name = textOf(template.name, i18n.language);
  const uninstall = useMutation({
    mutationFn: () => pluginsApi.uninstall(template.code),
    onSuccess: () => {
      void message.success(t('plugins.uninstalled', { name }));
      void queryClient.invalidateQueries({ queryKey: pluginKeys.all });
    },
  });
  const confirmUninstall = () =>
    modal.confirm({
      title: t('plugins.uninstallConfirm.title', { name }),
      content: t('plugins.uninstallConfirm.content'),
      okText: t('plugins.uninstallConfirm.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => uninstall.mutateAsync(),
    });
  const page = template.offers.settingsPage;
  const pageName = page === '/admin/connectors' ? t('plugins.settingsPages.connectors') : page ? t('plugins.settingsPages.channels') : '';
  const installed = item.status === 'installed';
  const offers = [
    ...template.offers.controls.map((c) => {
      const type = controlTypeByKey(c);
      return `${t('plugins.offers.controls')}：${type ? textOf(type.displayName, i18n.language) : c}`;
    }),
    ...template.offers.automationActions.map((a) => `${t('plugins.offers.automation')}：${t(`plugins.automationNames.${a}`)}`),
  ];
  if (!offers.length && page) offers.push(t('plugins.offers.none'));
  return (
    <Card
      data-testid={`plugin-card-${template.code}`}
      title={<Typography.Text strong>{name}</Typography.Text>}
      extra={<Tag color={INSTALL_COLORS[item.status]} data-testid={`plugin-status-${template.code}`}>{t(`plugins.status.${item.status}`)}</Tag>}
      style={{ height: '100%' }}
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 8, minHeight: 180 } }}
    >
      {template.provider && <Typography.Text type="secondary">{t('plugins.provider', { name: template.provider })}</Typography.Text>}
      <Typography.Paragraph style={{ margin: 0 }} ellipsis={{ rows: 3, tooltip: textOf(template.description, i18n.language) }}>
        {textOf(template.description, i18n.language)}
      </Typography.Paragraph>
      <Flex wrap gap={4}>{offers.map((o) => <Tag key={o} bordered={false} color="blue">{o}</Tag>)}</Flex>
      {installed && item.installedTime && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('plugins.installedAt', { time: formatDateTime(item.installedTime) })}</Typography.Text>}
      {item.lastError && item.status === 'notInstalled' && <Alert type="error" showIcon message={t('plugins.lastError', { error: item.lastError })} />}
      {page && installed && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('plugins.settingsOn', { page: pageName })}</Typography.Text>}
      <Space wrap style={{ marginTop: 'auto' }}>
        {template.unavailableReason ? (
          <Button disabled title={textOf(template.unavailableReason, i18n.language)}>{t('plugins.unavailable')}</Button>
        ) : installed ? (
          <>
            {template.settings.length > 0 && <Button onClick={onEdit}>{t('plugins.settings')}</Button>}
            {page && <Button onClick={() => void navigate(page)}>{t('plugins.goSettings')}</Button>}
            <Button danger loading={uninstall.isPending} onClick={confirmUninstall}>{t('plugins.uninstall')}</Button>
          </>
        ) : (
          <Button type="primary" disabled={item.status === 'installing'} onClick={onEdit}>{t('plugins.install')}</Button>
        )}
      </Space>
      {template.unavailableReason && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{textOf(template.unavailableReason, i18n.language)}</Typography.Text>}
    </Card>
  );
}

/** The platform's templates as cards, each with this engine's state. */
export function CatalogueTab() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const catalogue = useQuery({ queryKey: pluginKeys.catalogue, queryFn: pluginsApi.catalogue });
  const [editing, setEditing] = useState<string | null>(null);
  if (!catalogue.data) return <Skeleton active paragraph={{ rows: 8 }} />;
  const items = new Map(catalogue.data.items.map((i) => [i.templateCode, i]));
  const templates = PLUGIN_TEMPLATES as readonly PluginTemplate[];
  const current = templates.find((tpl) => tpl.code === editing);
  const currentItem = editing ? items.get(editing) : undefined;
  return (
    <Flex vertical gap="middle">
      <Typography.Text type="secondary">{t('plugins.intro')}</Typography.Text>
      <Row gutter={[16, 16]}>
        {templates.map((template) => (
          <Col key={template.code} xs={24} md={12} xl={8}>
            <PluginCard template={template} item={items.get(template.code) ?? { templateCode: template.code, status: 'notInstalled', settings: {}, secretsSet: [], lastError: null, installedTime: null }} onEdit={() => setEditing(template.code)} />
          </Col>
        ))}
      </Row>
      {current && currentItem && (
        <PluginSettingsDialog
          template={current}
          item={currentItem}
          onClose={() => setEditing(null)}
          onDone={(installed) => {
            setEditing(null);
            void message.success(installed ? t('plugins.installed', { name: textOf(current.name, i18n.language) }) : t('plugins.saved'));
            void queryClient.invalidateQueries({ queryKey: pluginKeys.all });
          }}
        />
      )}
    </Flex>
  );
}

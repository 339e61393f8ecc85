import { useState } from 'react';
import { App, Button, Empty, Flex, Input, Modal, Popconfirm, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pluginKeys, pluginsApi, type CustomPluginDto } from './plugins-api.ts';
import { CustomPluginForm } from './custom-plugin-form.tsx';
import { INSTALL_COLORS } from './catalogue-tab.tsx';

const PUBLICATION_COLORS = { prePublish: 'default', underReview: 'warning', published: 'success' } as const;

/** The engine's own plugins through domain.md's publication: 预发布 → 审核中 → 已发布, then install and uninstall. */
export function CustomPluginsTab() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: pluginKeys.custom, queryFn: pluginsApi.customList });
  const [editing, setEditing] = useState<CustomPluginDto | 'new' | null>(null);
  const [rejecting, setRejecting] = useState<CustomPluginDto | null>(null);
  const [reason, setReason] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: pluginKeys.all });
  const done = (text: string) => () => {
    void message.success(text);
    void refresh();
  };
  const submit = useMutation({ mutationFn: pluginsApi.submitCustom, onSuccess: done(t('plugins.custom.submitted')) });
  const review = useMutation({ mutationFn: pluginsApi.reviewCustom, onSuccess: (p) => { setRejecting(null); done(p.publication === 'published' ? t('plugins.custom.approved') : t('plugins.custom.rejected'))(); } });
  const install = useMutation({ mutationFn: (row: CustomPluginDto) => pluginsApi.install({ code: row.code }), onSuccess: (_r, row) => done(t('plugins.installed', { name: row.name }))() });
  const remove = useMutation({ mutationFn: pluginsApi.removeCustom, onSuccess: () => void refresh() });
  const c = (key: string) => t(`plugins.custom.${key}` as 'plugins.custom.add');

  const confirmUninstall = (row: CustomPluginDto) =>
    modal.confirm({
      title: t('plugins.uninstallConfirm.title', { name: row.name }),
      content: t('plugins.uninstallConfirm.content'),
      okText: t('plugins.uninstallConfirm.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => pluginsApi.uninstall(row.code).then(() => done(t('plugins.uninstalled', { name: row.name }))()),
    });

  const columns = [
    {
      title: c('columns.name'),
      dataIndex: 'name',
      render: (name: string, row: CustomPluginDto) => (
        <Flex vertical>
          <Typography.Text>{name}</Typography.Text>
          {row.description && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{row.description}</Typography.Text>}
          {row.rejectReason && <Typography.Text type="danger" style={{ fontSize: 12 }}>{t('plugins.custom.rejectReason', { reason: row.rejectReason })}</Typography.Text>}
        </Flex>
      ),
    },
    { title: c('columns.code'), dataIndex: 'code' },
    { title: c('columns.connector'), key: 'connector', render: (_: unknown, row: CustomPluginDto) => row.definition.connectorCode },
    { title: c('columns.publication'), dataIndex: 'publication', render: (p: CustomPluginDto['publication'], row: CustomPluginDto) => <Tag color={PUBLICATION_COLORS[p]} data-testid={`publication-${row.code}`}>{t(`plugins.custom.publication.${p}`)}</Tag> },
    { title: c('columns.status'), dataIndex: 'status', render: (s: CustomPluginDto['status']) => <Tag color={INSTALL_COLORS[s]}>{t(`plugins.status.${s}`)}</Tag> },
    {
      title: c('columns.actions'),
      key: 'actions',
      width: 280,
      render: (_: unknown, row: CustomPluginDto) => {
        const installed = row.status !== 'notInstalled';
        return (
          <Space size="small" wrap>
            {row.publication === 'prePublish' && <Button size="small" type="primary" onClick={() => submit.mutate(row.code)}>{c('submit')}</Button>}
            {row.publication === 'underReview' && (
              <>
                <Button size="small" type="primary" onClick={() => review.mutate({ code: row.code, approve: true })}>{c('approve')}</Button>
                <Button size="small" onClick={() => { setReason(''); setRejecting(row); }}>{c('reject')}</Button>
              </>
            )}
            {row.publication === 'published' && !installed && <Button size="small" type="primary" onClick={() => install.mutate(row)}>{t('plugins.install')}</Button>}
            {installed && <Button size="small" danger onClick={() => confirmUninstall(row)}>{t('plugins.uninstall')}</Button>}
            {row.publication !== 'underReview' && !installed && <Button size="small" onClick={() => setEditing(row)}>{c('edit')}</Button>}
            {!installed && (
              <Popconfirm title={t('plugins.custom.removeConfirm', { name: row.name })} onConfirm={() => remove.mutate(row.code)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                <Button size="small" danger type="text">{c('remove')}</Button>
              </Popconfirm>
            )}
          </Space>
        );
      },
    },
  ];

  if (!list.data) return <Skeleton active paragraph={{ rows: 4 }} />;
  return (
    <Flex vertical gap="middle">
      <Flex justify="space-between" align="center" gap="middle">
        <Typography.Text type="secondary">{c('intro')}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>{c('add')}</Button>
      </Flex>
      <Table rowKey="code" size="middle" columns={columns} dataSource={list.data.items} pagination={false} locale={{ emptyText: <Empty description={c('empty')} /> }} />
      {editing && <CustomPluginForm plugin={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); void refresh(); }} />}
      {rejecting && (
        <Modal
          open
          title={t('plugins.custom.rejectTitle', { name: rejecting.name })}
          onCancel={() => setRejecting(null)}
          onOk={() => review.mutate({ code: rejecting.code, approve: false, reason })}
          okButtonProps={{ disabled: !reason.trim() }}
          confirmLoading={review.isPending}
          okText={c('reject')}
          cancelText={t('common.cancel')}
        >
          <Typography.Text>{c('rejectReasonLabel')}</Typography.Text>
          <Input.TextArea aria-label={c('rejectReasonLabel')} rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Modal>
      )}
    </Flex>
  );
}

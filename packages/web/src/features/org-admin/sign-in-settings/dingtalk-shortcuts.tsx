import { useState } from 'react';
import { App, Button, Flex, Form, Input, Modal, Popconfirm, Select, Table, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { appKeys, appsApi } from '../../apps/api/apps-api.ts';
import { shortcutApi, shortcutKeys, type DingtalkShortcut } from './sso-api.ts';

interface ShortcutValues {
  name: string;
  nodeCode: string;
}

/**
 * DingTalk shortcuts (calls.md §2 /v1/shortcut/dingtalk): entries for the organisation's DingTalk workplace, each
 * opening one app; the Administrator copies the address into DingTalk's workplace settings.
 */
export function DingtalkShortcuts() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: shortcutKeys.list, queryFn: shortcutApi.list });
  const apps = useQuery({ queryKey: appKeys.list, queryFn: appsApi.listApps });
  const [editing, setEditing] = useState<DingtalkShortcut | 'new' | null>(null);
  const [form] = Form.useForm<ShortcutValues>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: shortcutKeys.list });
  const save = useMutation({
    mutationFn: async (values: ShortcutValues): Promise<void> => {
      if (editing && editing !== 'new') await shortcutApi.update({ id: editing.id, ...values });
      else await shortcutApi.create(values);
    },
    onSuccess: async () => {
      setEditing(null);
      void message.success(t('signInSettings.saved'));
      await refresh();
    },
  });
  const remove = useMutation({ mutationFn: shortcutApi.remove, onSuccess: refresh });
  const open = (shortcut: DingtalkShortcut | 'new') => {
    form.setFieldsValue(shortcut === 'new' ? { name: '', nodeCode: undefined } : { name: shortcut.name, nodeCode: shortcut.nodeCode });
    setEditing(shortcut);
  };
  return (
    <Flex vertical gap="middle">
      <Flex justify="space-between" align="center">
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('signInSettings.shortcuts.title')}
        </Typography.Title>
        <Button onClick={() => open('new')}>{t('signInSettings.shortcuts.add')}</Button>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('signInSettings.shortcuts.intro')}
      </Typography.Paragraph>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: t('signInSettings.shortcuts.empty') }}
        columns={[
          { title: t('signInSettings.shortcuts.name'), dataIndex: 'name', width: 140 },
          { title: t('signInSettings.shortcuts.app'), dataIndex: 'nodeName', width: 140, render: (v: string) => v || <Typography.Text type="danger">{t('signInSettings.shortcuts.appGone')}</Typography.Text> },
          {
            title: t('signInSettings.shortcuts.url'),
            dataIndex: 'url',
            render: (v: string) => (
              <Typography.Text copyable={{ text: v }} ellipsis style={{ maxWidth: 260 }}>
                {v}
              </Typography.Text>
            ),
          },
          {
            title: t('signInSettings.shortcuts.actions'),
            key: 'actions',
            width: 120,
            render: (_: unknown, row) => (
              <Flex gap="small">
                <Button type="link" size="small" onClick={() => open(row)}>
                  {t('signInSettings.shortcuts.edit')}
                </Button>
                <Popconfirm title={t('signInSettings.shortcuts.removeConfirm', { name: row.name })} onConfirm={() => remove.mutate(row.id)}>
                  <Button type="link" size="small" danger>
                    {t('signInSettings.shortcuts.remove')}
                  </Button>
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={t(editing === 'new' ? 'signInSettings.shortcuts.add' : 'signInSettings.shortcuts.editTitle')}
        okText={t('signInSettings.save')}
        confirmLoading={save.isPending}
        onOk={() => form.submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Form form={form} name="dingtalkShortcut" layout="vertical" onFinish={(values) => save.mutate({ name: values.name.trim(), nodeCode: values.nodeCode })}>
          <Form.Item name="name" label={t('signInSettings.shortcuts.name')} rules={[{ required: true, whitespace: true, message: t('signInSettings.shortcuts.nameRequired') }, { max: 32, message: t('signInSettings.shortcuts.nameTooLong') }]}>
            <Input maxLength={32} showCount />
          </Form.Item>
          <Form.Item name="nodeCode" label={t('signInSettings.shortcuts.app')} rules={[{ required: true, message: t('signInSettings.shortcuts.appRequired') }]}>
            <Select showSearch optionFilterProp="label" loading={apps.isLoading} options={(apps.data?.list ?? []).map((a) => ({ value: a.code, label: a.displayName }))} />
          </Form.Item>
        </Form>
      </Modal>
    </Flex>
  );
}

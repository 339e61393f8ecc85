import { App, Button, Empty, Flex, Popconfirm, Switch, Table, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, HistoryOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ColumnsType } from 'antd/es/table';
import { useIsPhone } from '../../lib/use-is-phone.ts';
import { automationApi, automationKeys, type AutomationDto } from './automation-api.ts';
import { describeTrigger } from './trigger-text.ts';
import type { AutomationForm } from './use-automation-form.ts';
import { formatDateTime } from '../../lib/date-format.ts';

interface AutomationListProps {
  form: AutomationForm;
  automations: AutomationDto[];
  isLoading: boolean;
  onEdit: (automation: AutomationDto) => void;
  onLog: (automation: AutomationDto) => void;
  onAdd: () => void;
}

// On a phone: the name (with the trigger under it), the switch and the actions.
const PHONE_COLUMNS = ['name', 'enabled', 'actions'];

/** The form's automations: name, trigger in words, the enabled switch, owner, next run; edit, run log, delete. */
export function AutomationList({ form, automations, isLoading, onEdit, onLog, onAdd }: AutomationListProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const isPhone = useIsPhone();
  const refresh = () => client.invalidateQueries({ queryKey: automationKeys.list(form.schemaCode) });
  const toggle = useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => (enabled ? automationApi.enable(id) : automationApi.disable(id)),
    onSuccess: (_, { enabled }) => {
      void message.success(t(enabled ? 'automation.enabledOn' : 'automation.enabledOff'));
      return refresh();
    },
  });
  // A custom trigger has no event of its own: its designer runs it here (other automations and the API call it too).
  const runNow = useMutation({
    mutationFn: (id: string) => automationApi.run({ schemaCode: form.schemaCode, automationId: id, objectIds: [] }),
    onSuccess: () => void message.success(t('automation.runQueued')),
  });
  const remove = useMutation({
    mutationFn: (id: string) => automationApi.remove(id),
    onSuccess: () => {
      void message.success(t('automation.removed'));
      return refresh();
    },
  });
  const columns: ColumnsType<AutomationDto> = [
        {
          key: 'name',
          title: t('automation.columns.name'),
          fixed: isPhone ? undefined : 'left',
          width: isPhone ? undefined : 160,
          render: (_, a) => (
            <Flex vertical>
              <Typography.Link onClick={() => onEdit(a)}>{a.name}</Typography.Link>
              {/* A phone has no room for the trigger's column: it reads under the name. */}
              {isPhone && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{describeTrigger(a.trigger, form.sources, t)}</Typography.Text>}
            </Flex>
          ),
        },
        { key: 'trigger', title: t('automation.columns.trigger'), ellipsis: true, render: (_, a) => describeTrigger(a.trigger, form.sources, t) },
        {
          key: 'enabled',
          title: t('automation.columns.enabled'),
          width: 80,
          render: (_, a) => (
            <Switch size="small" aria-label={t('automation.columns.enabled') + ' ' + a.name} checked={a.enabled}
              loading={toggle.isPending && toggle.variables?.id === a.id} onChange={(enabled) => toggle.mutate({ id: a.id, enabled })} />
          ),
        },
        { key: 'owner', title: t('automation.columns.owner'), width: 100, render: (_, a) => a.ownerName || '--' },
        { key: 'next', title: t('automation.columns.nextRunTime'), width: 150, render: (_, a) => formatDateTime(a.nextRunTime) },
        {
          key: 'actions',
          title: t('automation.columns.actions'),
          width: 150,
          render: (_, a) => (
            <Flex gap={2}>
              <Button type="text" size="small" icon={<EditOutlined />} aria-label={`${t('automation.edit')} ${a.name}`} title={t('automation.edit')} onClick={() => onEdit(a)} />
              {a.trigger.type === 'custom' && (
                <Button type="text" size="small" icon={<PlayCircleOutlined />} aria-label={`${t('automation.runNow')} ${a.name}`} title={t('automation.runNow')}
                  disabled={!a.enabled} loading={runNow.isPending && runNow.variables === a.id} onClick={() => runNow.mutate(a.id)} />
              )}
              <Button type="text" size="small" icon={<HistoryOutlined />} aria-label={`${t('automation.runLog')} ${a.name}`} title={t('automation.runLog')} onClick={() => onLog(a)} />
              <Popconfirm title={t('automation.removeConfirm', { name: a.name })} okButtonProps={{ danger: true }} okText={t('automation.remove')} onConfirm={() => remove.mutate(a.id)}>
                <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`${t('automation.remove')} ${a.name}`} title={t('automation.remove')} />
              </Popconfirm>
            </Flex>
          ),
        },
  ];
  return (
    <Table<AutomationDto>
      rowKey="id"
      loading={isLoading}
      dataSource={automations}
      pagination={false}
      scroll={isPhone ? undefined : { x: 820 }}
      locale={{
        emptyText: (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('automation.empty')}>
            <Button type="primary" onClick={onAdd} disabled={!form.isPublished}>{t('automation.add')}</Button>
          </Empty>
        ),
      }}
      columns={isPhone ? columns.filter((c) => PHONE_COLUMNS.includes(String(c.key))) : columns}
    />
  );
}

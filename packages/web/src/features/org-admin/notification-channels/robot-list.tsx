import { useState } from 'react';
import { Button, Flex, Popconfirm, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { channelKeys, channelsApi, type RobotDto } from './channels-api.ts';
import { RobotDialog } from './robot-dialog.tsx';
import { TestSend } from './test-send.tsx';

/** The engine's chat-platform robots: every enabled one receives each robot notification. */
export function RobotList({ robots }: { robots: RobotDto[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<RobotDto | 'new' | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: channelKeys.list });
  const remove = useMutation({ mutationFn: channelsApi.removeRobot, onSuccess: refresh });

  const columns = [
    { title: t('notificationChannels.robot.name'), dataIndex: 'name', key: 'name' },
    { title: t('notificationChannels.robot.platform'), dataIndex: 'platform', key: 'platform', render: (p: RobotDto['platform']) => t(`notificationChannels.platforms.${p}`) },
    { title: t('notificationChannels.robot.webhookUrl'), dataIndex: 'webhookUrlMasked', key: 'url', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: t('notificationChannels.robot.secret'), dataIndex: 'hasSecret', key: 'secret', render: (v: boolean) => (v ? <Tag color="blue">{t('notificationChannels.secretSet')}</Tag> : '--') },
    { title: t('notificationChannels.robot.state'), dataIndex: 'enabled', key: 'enabled', render: (v: boolean) => (v ? <Tag color="green">{t('notificationChannels.robot.on')}</Tag> : <Tag>{t('notificationChannels.robot.off')}</Tag>) },
    {
      title: t('notificationChannels.robot.actions'),
      key: 'actions',
      render: (_: unknown, robot: RobotDto) => (
        <Flex vertical gap="small">
          <Flex gap="small">
            <Button type="link" size="small" aria-label={t('notificationChannels.robot.editOf', { name: robot.name })} onClick={() => setEditing(robot)}>
              {t('notificationChannels.robot.editShort')}
            </Button>
            <Popconfirm title={t('notificationChannels.robot.removeConfirm', { name: robot.name })} okText={t('notificationChannels.robot.remove')} okButtonProps={{ danger: true }} onConfirm={() => remove.mutateAsync(robot.id)}>
              <Button type="link" danger size="small" aria-label={t('notificationChannels.robot.removeOf', { name: robot.name })}>
                {t('notificationChannels.robot.remove')}
              </Button>
            </Popconfirm>
          </Flex>
          <TestSend kind="robot" robotId={robot.id} />
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap="middle">
      <Flex align="center" justify="space-between">
        <Typography.Text type="secondary">{t('notificationChannels.robot.intro')}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('notificationChannels.robot.add')}
        </Button>
      </Flex>
      <Table<RobotDto> rowKey="id" size="middle" aria-label={t('notificationChannels.robot.listLabel')} dataSource={robots} columns={columns} pagination={false} locale={{ emptyText: t('notificationChannels.robot.empty') }} />
      <RobotDialog key={editing === 'new' ? 'new' : (editing?.id ?? 'none')} robot={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} onSaved={refresh} />
    </Flex>
  );
}

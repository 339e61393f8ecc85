import { App, Button, Drawer, Progress, Space, Table, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dataPortApi, dataPortKeys, downloadTaskFile, FINAL_STATES, type PortTask } from '../api/data-port-api.ts';

const STATE_COLOR: Record<string, string> = { Finished: 'success', Failed: 'error', Timeout: 'warning', Running: 'processing', Waiting: 'default', Canceled: 'default' };

/** The caller's import and export tasks of the last 72 hours for a form: states, progress, cancel, retry, downloads. */
export function TaskHistory({ schemaCode, open, onClose }: { schemaCode: string; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const tasks = useQuery({
    queryKey: dataPortKeys.tasks(schemaCode),
    queryFn: () => dataPortApi.tasks({ SchemaCode: schemaCode, PageSize: 50 }),
    enabled: open,
    refetchInterval: (q) => (q.state.data?.list.some((x) => !FINAL_STATES.has(x.state)) ? 1500 : false),
  });
  const refresh = () => client.invalidateQueries({ queryKey: dataPortKeys.tasks(schemaCode) });
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
    } catch (error) {
      message.error((error as Error).message);
    }
    await refresh();
  };
  return (
    <Drawer open={open} onClose={onClose} width={920} title={t('dataPort.tasks.title')} destroyOnHidden>
      <Table<PortTask> size="small" rowKey="taskId" loading={tasks.isFetching && !tasks.data} dataSource={tasks.data?.list ?? []} pagination={false}
        locale={{ emptyText: t('dataPort.tasks.empty') }}
        columns={[
          { title: t('dataPort.tasks.type'), dataIndex: 'type', width: 70, render: (v: PortTask['type']) => t(`dataPort.type.${v}`) },
          { title: t('dataPort.tasks.file'), dataIndex: 'fileName', width: 160, ellipsis: true },
          { title: t('dataPort.tasks.state'), dataIndex: 'state', width: 90, render: (v: PortTask['state']) => <Tag color={STATE_COLOR[v]}>{t(`dataPort.state.${v}`)}</Tag> },
          { title: t('dataPort.tasks.progress'), dataIndex: 'progress', width: 120, render: (v: number, r) => <Progress size="small" percent={r.state === 'Finished' ? 100 : v} status={r.state === 'Failed' || r.state === 'Timeout' ? 'exception' : undefined} /> },
          {
            title: t('dataPort.tasks.counts'), width: 230,
            render: (_v, r) => (r.state !== 'Finished' ? null : r.type === 'Import' ? t('dataPort.tasks.importCounts', r) : t('dataPort.tasks.exportCounts', r)),
          },
          { title: t('dataPort.tasks.time'), dataIndex: 'createdTime', width: 150, render: (v: string) => new Date(v).toLocaleString('zh-CN', { hour12: false }) },
          {
            title: t('dataPort.tasks.actions'), width: 150,
            render: (_v, r) => (
              <Space size={0} wrap>
                {r.state === 'Waiting' && <Button size="small" type="link" onClick={() => void act(() => dataPortApi.cancel(r), t('dataPort.tasks.canceled'))}>{t('dataPort.tasks.cancel')}</Button>}
                {r.state === 'Timeout' && <Button size="small" type="link" onClick={() => void act(() => dataPortApi.retry([r.taskId]), t('dataPort.tasks.retried'))}>{t('dataPort.tasks.retry')}</Button>}
                {r.hasResult && <Button size="small" type="link" onClick={() => void downloadTaskFile(r.taskId, 'Result')}>{t('dataPort.tasks.download')}</Button>}
                {r.hasErrorReport && <Button size="small" type="link" onClick={() => void downloadTaskFile(r.taskId, 'ErrorReport')}>{t('dataPort.tasks.errorReport')}</Button>}
              </Space>
            ),
          },
        ]} />
    </Drawer>
  );
}

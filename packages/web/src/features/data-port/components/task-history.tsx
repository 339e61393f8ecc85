import { App, Button, Card, Flex, Progress, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { dataPortApi, dataPortKeys, downloadTaskFile, FINAL_STATES, type PortTask, type TaskQuery } from '../api/data-port-api.ts';
import { RollbackButton, RollbackStatus, rollbackOpen } from './rollback-action.tsx';
import { formatDateTime as time } from '../../../lib/date-format.ts';

const STATE_COLOR: Record<string, string> = { Finished: 'success', Failed: 'error', Timeout: 'warning', Running: 'processing', Waiting: 'default', Canceled: 'default', Queuing: 'default', Suspend: 'default' };
const HOURS = [24, 72, 168, 720] as const;
type Hours = (typeof HOURS)[number];
const isHours = (h: number | undefined): h is Hours => HOURS.includes(h as Hours);
const PAGE_SIZES = [20, 50, 100];

/** The history page's address (the workbench's), optionally for one form. */
export const dataPortTasksPath = (schemaCode?: string) => `/workbench/data-port${schemaCode ? `?schemaCode=${encodeURIComponent(schemaCode)}` : ''}`;

/**
 * 导入导出记录 (domain.md §1; calls.md §9 LoadTaskRecords): the caller's import and export tasks, a page at a time,
 * by type, period and form (all in the address, so the page can be linked). Each row: state, progress, counts,
 * downloads of the result or the error report, cancel of a waiting task and retry of a timed-out one.
 */
export function DataPortTasksPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const type = params.get('type');
  const query: TaskQuery = {
    ...(type === 'Import' || type === 'Export' ? { Type: type } : {}),
    ...(params.get('schemaCode') ? { SchemaCode: params.get('schemaCode')! } : {}),
    RecentHours: Number(params.get('hours')) || 72,
    PageIndex: Number(params.get('page')) || 1,
    PageSize: Number(params.get('size')) || 20,
  };
  const set = (changes: Record<string, string | number | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, String(v));
    }
    setParams(next, { replace: true });
  };
  const tasks = useQuery({
    queryKey: dataPortKeys.history(query),
    queryFn: () => dataPortApi.tasks(query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some((x) => !FINAL_STATES.has(x.state) || rollbackOpen(x)) ? 1500 : false),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['data-port'] });
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
    } catch (error) {
      message.error((error as Error).message);
    }
    await refresh();
  };
  const download = async (taskId: string, kind: 'Result' | 'ErrorReport') => {
    try {
      await downloadTaskFile(taskId, kind);
    } catch (error) {
      message.error((error as Error).message);
    }
  };
  return (
    <Card
      title={t('dataPort.tasks.title')}
      style={{ margin: 16 }}
      extra={<Button icon={<ReloadOutlined />} onClick={() => void refresh()}>{t('dataPort.tasks.refresh')}</Button>}
    >
      <Flex gap="middle" wrap align="center" style={{ marginBottom: 12 }}>
        <Segmented
          aria-label={t('dataPort.tasks.type')}
          value={query.Type ?? 'All'}
          onChange={(v) => set({ type: v === 'All' ? null : String(v), page: null })}
          options={[{ value: 'All', label: t('dataPort.tasks.all') }, { value: 'Import', label: t('dataPort.type.Import') }, { value: 'Export', label: t('dataPort.type.Export') }]}
        />
        <Space>
          <Typography.Text type="secondary">{t('dataPort.tasks.period')}</Typography.Text>
          <Select aria-label={t('dataPort.tasks.period')} style={{ width: 120 }} value={query.RecentHours}
            onChange={(v) => set({ hours: v === 72 ? null : v, page: null })}
            options={HOURS.map((h) => ({ value: h, label: t(`dataPort.tasks.periods.h${h}` as const) }))} />
        </Space>
        {query.SchemaCode && (
          <Tag closable onClose={() => set({ schemaCode: null, page: null })}>{t('dataPort.tasks.oneForm', { code: query.SchemaCode })}</Tag>
        )}
      </Flex>
      <Table<PortTask>
        size="small"
        rowKey="taskId"
        loading={tasks.isFetching && !tasks.data}
        dataSource={tasks.data?.list ?? []}
        scroll={{ x: 1034 }}
        locale={{ emptyText: t('dataPort.tasks.emptyIn', { period: isHours(query.RecentHours) ? t(`dataPort.tasks.periods.h${query.RecentHours}` as const) : `${query.RecentHours}h` }) }}
        pagination={{
          current: query.PageIndex,
          pageSize: query.PageSize,
          total: tasks.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => t('dataPort.tasks.total', { total }),
          onChange: (page, size) => set({ page: page === 1 ? null : page, size: size === 20 ? null : size }),
        }}
        columns={[
          { title: t('dataPort.tasks.type'), dataIndex: 'type', width: 64, render: (v: PortTask['type']) => t(`dataPort.type.${v}`) },
          { title: t('dataPort.tasks.file'), dataIndex: 'fileName', width: 140, ellipsis: true },
          {
            title: t('dataPort.tasks.mode'), width: 120,
            render: (_v, r) => (r.type === 'Import' ? `${t(`dataPort.importType.${r.importType ?? 'InsertOnly'}`)} · ${t(`dataPort.dataState.${r.dataState ?? 'Draft'}`)}` : '—'),
          },
          {
            title: t('dataPort.tasks.state'), dataIndex: 'state', width: 130,
            render: (v: PortTask['state'], r) => (
              <Flex vertical gap={4}>
                <Tag color={STATE_COLOR[v]} style={{ width: 'fit-content' }}>{t(`dataPort.state.${v}`)}</Tag>
                <RollbackStatus task={r} />
              </Flex>
            ),
          },
          {
            title: t('dataPort.tasks.progress'), dataIndex: 'progress', width: 120,
            render: (v: number, r) => <Progress size="small" percent={r.state === 'Finished' ? 100 : Math.round(v)} status={r.state === 'Failed' || r.state === 'Timeout' ? 'exception' : r.state === 'Running' ? 'active' : undefined} />,
          },
          {
            title: t('dataPort.tasks.counts'), width: 160,
            render: (_v, r) => {
              if (r.state !== 'Finished') return r.message && r.state === 'Failed' ? <Typography.Text type="danger" ellipsis title={r.message}>{r.message}</Typography.Text> : null;
              return r.type === 'Import' ? t('dataPort.tasks.importCounts', r) : t('dataPort.tasks.exportCounts', r);
            },
          },
          {
            title: t('dataPort.tasks.time'), dataIndex: 'createdTime', width: 170,
            render: (v: string, r) => (
              <Flex vertical>
                <span>{time(v)}</span>
                {r.finishedTime && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('dataPort.tasks.finishedAt', { time: time(r.finishedTime) })}</Typography.Text>}
              </Flex>
            ),
          },
          {
            title: t('dataPort.tasks.actions'), width: 130, fixed: 'right',
            render: (_v, r) => (
              <Space size={0} wrap>
                {r.state === 'Waiting' && <Button size="small" type="link" onClick={() => void act(() => dataPortApi.cancel(r), t('dataPort.tasks.canceled'))}>{t('dataPort.tasks.cancel')}</Button>}
                {r.state === 'Timeout' && !r.rollback && <Button size="small" type="link" onClick={() => void act(() => dataPortApi.retry([r.taskId]), t('dataPort.tasks.retried'))}>{t('dataPort.tasks.retry')}</Button>}
                {r.hasResult && <Button size="small" type="link" onClick={() => void download(r.taskId, 'Result')}>{t('dataPort.tasks.download')}</Button>}
                {r.hasErrorReport && <Button size="small" type="link" onClick={() => void download(r.taskId, 'ErrorReport')}>{t('dataPort.tasks.errorReport')}</Button>}
                <RollbackButton task={r} onDone={refresh} />
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

import { Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FlowCenterListResult, FlowCenterRow, FlowCenterTab } from './flow-center-api.ts';
import { CurrentActivities, Deadline, FlowName, FlowState } from './flow-cells.tsx';
import { formatDateTime } from '../../lib/date-format.ts';

interface Props {
  tab: FlowCenterTab;
  data: FlowCenterListResult | undefined;
  loading: boolean;
  pageIndex: number;
  pageSize: number;
  onPage: (pageIndex: number, pageSize: number) => void;
  selected: string[];
  onSelect?: (ids: string[]) => void;
}

/** A flow-center tab on PC: a paged table; the todo tab lets approval items be selected for rapid approval. */
export function FlowTable({ tab, data, loading, pageIndex, pageSize, onPage, selected, onSelect }: Props) {
  const { t } = useTranslation();
  const isItemTab = tab === 'todo' || tab === 'toRead' || tab === 'done';
  const columns: TableColumnsType<FlowCenterRow> = [
    { key: 'name', title: t('flowCenter.columns.name'), render: (_, row) => <FlowName row={row} />, ellipsis: false },
    { key: 'form', title: t('flowCenter.columns.form'), dataIndex: 'formName', width: 140 },
    { key: 'originator', title: t('flowCenter.columns.originator'), dataIndex: 'originatorName', width: 110 },
    ...(isItemTab ? [{ key: 'activity', title: t('flowCenter.columns.activity'), width: 130, render: (_: unknown, row: FlowCenterRow) => row.activityName ?? '' }] : []),
    { key: 'current', title: t('flowCenter.columns.current'), width: 150, render: (_, row) => <CurrentActivities row={row} /> },
    {
      key: 'time',
      title: t(tab === 'done' ? 'flowCenter.columns.finished' : isItemTab ? 'flowCenter.columns.received' : 'flowCenter.columns.started'),
      width: 160,
      render: (_, row) => formatDateTime(tab === 'done' ? row.itemFinishedTime : row.receivedTime),
    },
    ...(tab === 'todo' ? [{ key: 'deadline', title: t('flowCenter.columns.deadline'), width: 160, render: (_: unknown, row: FlowCenterRow) => <Deadline row={row} /> }] : []),
    { key: 'state', title: t('flowCenter.columns.state'), width: 100, render: (_, row) => <FlowState row={row} /> },
  ];
  return (
    <Table<FlowCenterRow>
      rowKey={(row) => row.workItemId ?? row.instanceId}
      size="middle"
      columns={columns}
      dataSource={data?.list ?? []}
      loading={loading}
      locale={{ emptyText: t(`flowCenter.empty.${tab}`) }}
      rowSelection={
        onSelect
          ? {
              selectedRowKeys: selected,
              onChange: (keys) => onSelect(keys.map(String)),
              getCheckboxProps: (row) => ({ disabled: row.itemType !== 'approve', title: row.itemType !== 'approve' ? t('flowCenter.rapid.onlyApprove') : undefined }),
            }
          : undefined
      }
      pagination={{
        current: pageIndex + 1,
        pageSize,
        total: data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 50, 100],
        showTotal: (count) => t('flowCenter.total', { count }),
        onChange: (page, size) => onPage(size === pageSize ? page - 1 : 0, size),
      }}
    />
  );
}

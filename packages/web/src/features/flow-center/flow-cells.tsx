import { Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import type { FlowCenterRow } from './flow-center-api.ts';
import { formatDateTime } from '../../lib/date-format.ts';

/** Where a row opens: the record in the form page (the form shows the workflow's buttons, trace and chart). */
export const recordPath = (row: Pick<FlowCenterRow, 'schemaCode' | 'objectId'>) => `${FORM_RUNTIME_PATH}/${row.schemaCode}/${row.objectId}`;

const STATE_COLORS: Record<string, string> = { Running: 'processing', Starting: 'default', Finished: 'success', Canceled: 'default' };

/** The instance's state; a finished flow that was vetoed says so. */
export function FlowState({ row }: { row: FlowCenterRow }) {
  const { t } = useTranslation();
  if (row.instanceState === 'Finished' && row.approval === 0) return <Tag color="error">{t('flowCenter.rejected')}</Tag>;
  const known = ['Initiated', 'Starting', 'Running', 'Finishing', 'Finished', 'Canceled'].includes(row.instanceState);
  return <Tag color={STATE_COLORS[row.instanceState] ?? 'default'}>{known ? t(`flowCenter.states.${row.instanceState as 'Running'}`) : row.instanceState}</Tag>;
}

/** The flow's name as a link to its record, with the overdue (已超时) and urged markers. */
export function FlowName({ row }: { row: FlowCenterRow }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      <Link to={recordPath(row)}>{row.instanceName || row.formName}</Link>
      {row.overdue && <Tag color="error">{t('flowCenter.overdue')}</Tag>}
      {row.urged && <Tag color="warning">{t('flowCenter.urged')}</Tag>}
    </Space>
  );
}

/** The item's deadline from its node's time limit (docs/decisions/0042), red once passed; — without one. */
export function Deadline({ row }: { row: FlowCenterRow }) {
  if (!row.dueTime) return <Typography.Text type="secondary">—</Typography.Text>;
  return <Typography.Text type={row.overdue ? 'danger' : undefined}>{formatDateTime(row.dueTime)}</Typography.Text>;
}

export function CurrentActivities({ row }: { row: FlowCenterRow }) {
  if (!row.currentActivities.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return <>{row.currentActivities.map((a) => a.name).join('、')}</>;
}

import { Alert, Button, Flex, Progress, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { downloadTaskFile, type PortTask } from '../api/data-port-api.ts';

/** A running or finished task: its progress bar, then its counts and downloads. */
export function TaskProgress({ task }: { task: PortTask | undefined }) {
  const { t } = useTranslation();
  if (!task) return <Progress percent={0} />;
  const isImport = task.type === 'Import';
  if (task.state === 'Failed' || task.state === 'Timeout' || task.state === 'Canceled') {
    return <Alert type="error" showIcon message={t(isImport ? 'dataPort.result.failed' : 'dataPort.exportDialog.failed', { message: task.message ?? t(`dataPort.state.${task.state}`) })} />;
  }
  if (task.state !== 'Finished') {
    return (
      <Flex vertical gap="small">
        <Typography.Text>{t(isImport ? 'dataPort.result.running' : 'dataPort.exportDialog.running')}</Typography.Text>
        <Progress percent={task.progress} status="active" aria-label={t('dataPort.tasks.progress')} />
        <Typography.Text type="secondary">{t('dataPort.result.background')}</Typography.Text>
      </Flex>
    );
  }
  return (
    <Flex vertical gap="middle">
      <Progress percent={100} />
      {isImport ? (
        <Alert type={task.rejected ? 'warning' : 'success'} showIcon message={t('dataPort.result.finished')} description={t('dataPort.result.counts', task)} />
      ) : (
        <Alert type="success" showIcon message={t('dataPort.exportDialog.done', { total: task.total })} />
      )}
      {task.hasErrorReport && <Button icon={<DownloadOutlined />} onClick={() => void downloadTaskFile(task.taskId, 'ErrorReport')}>{t('dataPort.result.errorReport')}</Button>}
      {task.hasResult && <Button type="primary" icon={<DownloadOutlined />} onClick={() => void downloadTaskFile(task.taskId, 'Result')}>{t('dataPort.exportDialog.download')}</Button>}
    </Flex>
  );
}

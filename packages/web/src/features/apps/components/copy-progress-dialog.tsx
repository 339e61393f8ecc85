import { useEffect } from 'react';
import { Alert, Button, Modal, Progress, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RETRYABLE_TASK_STATES, type BackgroundTaskState } from '@tritium/shared/constants/tasks';
import { appKeys, appsApi, type AppDto } from '../api/apps-api.ts';

// How often the dialog asks how far the copy has come.
const POLL_MS = 500;
const ENDED: readonly BackgroundTaskState[] = ['Finished', 'Failed', 'Canceled', 'Timeout'];

interface CopyProgressDialogProps {
  actionId: string | undefined;
  appName: string;
  onRetry: (actionId: string) => Promise<unknown>;
  onDone: (app: AppDto) => void;
  onClose: () => void;
}

/** The copy of an app, running as a background job: a progress bar until it ends, then what came of it. */
export function CopyProgressDialog({ actionId, appName, onRetry, onDone, onClose }: CopyProgressDialogProps) {
  const { t } = useTranslation();
  const progress = useQuery({
    queryKey: appKeys.copy(actionId ?? ''),
    queryFn: () => appsApi.copyProgress(actionId!),
    enabled: !!actionId,
    refetchInterval: (query) => (query.state.data && ENDED.includes(query.state.data.state) ? false : POLL_MS),
  });
  const job = progress.data;
  const newApp = job?.isComplete ? job.node : null;
  useEffect(() => {
    if (newApp) onDone(newApp);
  }, [newApp, onDone]);

  const isRunning = !job || !ENDED.includes(job.state);
  const canRetry = !!job && (RETRYABLE_TASK_STATES as readonly string[]).includes(job.state);
  const percent = job?.isComplete ? 100 : (job?.progress ?? 0);
  return (
    <Modal
      open={!!actionId}
      title={t('apps.copy.title', { name: appName })}
      closable={!isRunning}
      maskClosable={false}
      onCancel={onClose}
      footer={[
        canRetry && (
          <Button key="retry" type="primary" onClick={() => void onRetry(actionId!).then(() => progress.refetch())}>
            {t('apps.copy.retry')}
          </Button>
        ),
        <Button key="close" type={canRetry ? 'default' : 'primary'} disabled={isRunning} onClick={onClose}>
          {isRunning ? t('apps.copy.running') : t('apps.copy.finish')}
        </Button>,
      ]}
    >
      <Progress
        percent={percent}
        status={job?.state === 'Finished' ? 'success' : isRunning ? 'active' : 'exception'}
        aria-label={t('apps.copy.progress')}
      />
      {isRunning && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {job ? t(`apps.copy.states.${job.state}`) : t('apps.copy.starting')}
        </Typography.Paragraph>
      )}
      {newApp && <Alert type="success" showIcon style={{ marginTop: 12 }} title={t('apps.copy.done', { name: newApp.displayName })} />}
      {!isRunning && !newApp && job && (
        <Alert type="error" showIcon style={{ marginTop: 12 }} title={job.message ?? t(`apps.copy.states.${job.state}`)} />
      )}
      {progress.isError && <Alert type="error" showIcon style={{ marginTop: 12 }} title={t('apps.copy.lost')} />}
    </Modal>
  );
}

import { Alert, Button, Modal, Progress, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RETRYABLE_TASK_STATES, type BackgroundTaskState } from '@tritium/shared/constants/tasks';
import { templateApi, templateKeys } from './template-api.ts';

// How often the dialog asks how far the install has come.
const POLL_MS = 500;
const ENDED: readonly BackgroundTaskState[] = ['Finished', 'Failed', 'Canceled', 'Timeout'];

interface InstallProgressDialogProps {
  actionId: string | undefined;
  templateName: string;
  onOpenApp: (appCode: string) => void;
  onClose: () => void;
}

/** A template's install, running as a background job: a progress bar until it ends, then the new app to open. */
export function InstallProgressDialog({ actionId, templateName, onOpenApp, onClose }: InstallProgressDialogProps) {
  const { t } = useTranslation();
  const progress = useQuery({
    queryKey: templateKeys.install(actionId ?? ''),
    queryFn: () => templateApi.progress(actionId!),
    enabled: !!actionId,
    refetchInterval: (query) => (query.state.data && ENDED.includes(query.state.data.state) ? false : POLL_MS),
  });
  const job = progress.data;
  const appCode = job?.isComplete ? job.appCode : null;
  const isRunning = !job || !ENDED.includes(job.state);
  const canRetry = !!job && (RETRYABLE_TASK_STATES as readonly string[]).includes(job.state);
  const percent = job?.isComplete ? 100 : Math.round(job?.progress ?? 0);
  return (
    <Modal
      open={!!actionId}
      title={t('templates.install.title', { name: templateName })}
      closable={!isRunning}
      maskClosable={false}
      onCancel={onClose}
      footer={[
        isRunning && !!job && (
          <Button key="cancel" danger onClick={() => void templateApi.cancel(actionId!).then(() => progress.refetch())}>
            {t('templates.install.cancel')}
          </Button>
        ),
        canRetry && (
          <Button key="retry" onClick={() => void templateApi.retry(actionId!).then(() => progress.refetch())}>
            {t('templates.install.retry')}
          </Button>
        ),
        appCode ? (
          <Button key="open" type="primary" onClick={() => onOpenApp(appCode)}>
            {t('templates.install.open')}
          </Button>
        ) : (
          <Button key="close" disabled={isRunning} onClick={onClose}>
            {isRunning ? t('templates.install.running') : t('templates.install.close')}
          </Button>
        ),
      ]}
    >
      <Progress percent={percent} status={job?.state === 'Finished' ? 'success' : isRunning ? 'active' : 'exception'} aria-label={t('templates.install.progress')} />
      {isRunning && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {job?.state === 'Running' ? (job.message ?? t('templates.install.running')) : t('templates.install.waiting')}
        </Typography.Paragraph>
      )}
      {appCode && <Alert type="success" showIcon style={{ marginTop: 12 }} title={t('templates.install.done')} />}
      {!isRunning && !appCode && job && <Alert type="error" showIcon style={{ marginTop: 12 }} title={t('templates.install.failed', { message: job.message ?? job.state })} />}
    </Modal>
  );
}

import { useState } from 'react';
import { Alert, Button, Flex, Progress, Typography } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BACKGROUND_TASK_STATES, type BackgroundTaskState } from '@tritium/shared/constants/tasks';
import { formToolKeys, formToolsApi } from './form-tools-api.ts';

// How often the panel asks how far the recompute has come.
const POLL_MS = 500;
const ENDED: readonly string[] = ['Finished', 'Failed', 'Canceled', 'Timeout'] satisfies BackgroundTaskState[];
const stateKey = (state: string) => `formTools.rollup.states.${(BACKGROUND_TASK_STATES as readonly string[]).includes(state) ? (state as BackgroundTaskState) : 'Running'}` as const;

/** 重新计算汇总: starts the form's rollup recompute job and follows its progress until it ends. */
export function RollupRecomputePanel({ schemaCode }: { schemaCode: string }) {
  const { t } = useTranslation();
  const [actionId, setActionId] = useState<string>();
  const start = useMutation({ mutationFn: () => formToolsApi.recompute(schemaCode), onSuccess: (answer) => setActionId(answer.actionId) });
  const progress = useQuery({
    queryKey: formToolKeys.rollup(actionId ?? ''),
    queryFn: () => formToolsApi.progress(actionId!),
    enabled: !!actionId,
    refetchInterval: (query) => (query.state.data && ENDED.includes(query.state.data.state) ? false : POLL_MS),
  });
  const job = progress.data;
  const isRunning = !!actionId && !progress.isError && (!job || !ENDED.includes(job.state));
  const failed = !!job && ENDED.includes(job.state) && job.state !== 'Finished';

  return (
    <Flex vertical gap="middle">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('formTools.rollup.intro')}
      </Typography.Paragraph>
      <Flex>
        <Button type="primary" icon={<SyncOutlined />} loading={start.isPending || isRunning} onClick={() => start.mutate()}>
          {actionId ? t('formTools.rollup.again') : t('formTools.rollup.start')}
        </Button>
      </Flex>
      {actionId && (
        <Progress
          percent={job?.isComplete ? 100 : (job?.progress ?? 0)}
          status={job?.state === 'Finished' ? 'success' : failed ? 'exception' : 'active'}
          aria-label={t('formTools.rollup.progress')}
        />
      )}
      {isRunning && (
        <Typography.Text type="secondary" role="status">
          {job?.message ? t('formTools.rollup.counted', { message: job.message }) : t(stateKey(job?.state ?? 'Waiting'))}
        </Typography.Text>
      )}
      {job?.state === 'Finished' && job.result && <Alert type="success" showIcon title={t('formTools.rollup.done', { records: job.result.records, changed: job.result.changed })} />}
      {failed && <Alert type="error" showIcon title={t('formTools.rollup.failed', { reason: job.message ?? t(stateKey(job.state)) })} />}
      {progress.isError && <Alert type="error" showIcon title={t('formTools.rollup.lost')} />}
    </Flex>
  );
}

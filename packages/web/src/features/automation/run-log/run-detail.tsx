import { Button, Descriptions, Drawer, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../../lib/use-is-phone.ts';
import type { AutomationRunDto } from '../automation-api.ts';
import { RunStateTag } from './run-state-tag.tsx';
import { JsonBlock, StepLogList } from './step-log-list.tsx';
import { formatDateTimeSeconds } from '../../../lib/date-format.ts';

/** One run: its state, trigger, record, attempts, the inputs it read and each step's output or error; 重试 when failed. */
export function RunDetail({ run, onClose, onRetry, isRetrying }: { run: AutomationRunDto; onClose: () => void; onRetry: () => void; isRetrying: boolean }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  return (
    <Drawer open onClose={onClose} size={isPhone ? '100%' : 640} title={`${run.automationName} · ${t('automation.log.detail')}`}
      extra={run.state === 'Failed' && <Button type="primary" loading={isRetrying} onClick={onRetry}>{t('automation.log.retry')}</Button>}>
      <Flex vertical gap="middle">
        <Descriptions size="small" column={1} bordered items={[
          { key: 'state', label: t('automation.log.state'), children: <Flex gap="small" wrap><RunStateTag state={run.state} /><span>{t('automation.log.attempts', { n: run.attempts })}</span><span>{t('automation.log.depth', { n: run.depth })}</span></Flex> },
          { key: 'trigger', label: t('automation.log.trigger'), children: t(`automation.triggers.${run.triggerType}`, { defaultValue: run.triggerType }) },
          { key: 'record', label: t('automation.log.record'), children: run.objectId ?? '--' },
          { key: 'time', label: t('automation.log.time'), children: `${formatDateTimeSeconds(run.createdTime)} → ${formatDateTimeSeconds(run.finishedTime)}` },
          { key: 'duration', label: t('automation.log.duration'), children: run.durationMs === null ? '--' : t('automation.log.ms', { n: run.durationMs }) },
          ...(run.error ? [{ key: 'error', label: t('automation.log.error'), children: <Typography.Text type="danger">{run.error}</Typography.Text> }] : []),
        ]} />
        <Typography.Title level={5} style={{ margin: 0 }}>{t('automation.log.inputs')}</Typography.Title>
        <JsonBlock value={run.inputs} />
        <Typography.Title level={5} style={{ margin: 0 }}>{t('automation.log.steps')}</Typography.Title>
        <StepLogList steps={run.steps} />
      </Flex>
    </Drawer>
  );
}

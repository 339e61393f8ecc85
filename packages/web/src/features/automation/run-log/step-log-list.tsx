import { Card, Flex, Tag, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AutomationStepLog } from '../automation-api.ts';

/** A JSON value as readable text, for inputs and outputs. */
export function JsonBlock({ value }: { value: unknown }) {
  if (value === undefined || value === null) return <Typography.Text type="secondary">--</Typography.Text>;
  return (
    <pre style={{ margin: 0, padding: 8, maxHeight: 240, overflow: 'auto', background: 'var(--ant-color-fill-quaternary)', borderRadius: 6, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** Each step of a run (or a test run): ok or failed, its time, what it did or why it failed. */
export function StepLogList({ steps }: { steps: AutomationStepLog[] }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="small" role="list">
      {steps.map((step, i) => (
        <Card key={`${step.stepId}-${i}`} size="small" role="listitem" aria-label={`${step.stepId} ${step.name || t(`automation.actions.${step.type}`, { defaultValue: step.type })}`}>
          <Flex vertical gap={4} style={{ minWidth: 0 }}>
            <Flex gap="small" align="center" wrap>
              {step.ok ? <CheckCircleFilled style={{ color: 'var(--ant-color-success)' }} /> : <CloseCircleFilled style={{ color: 'var(--ant-color-error)' }} />}
              <Typography.Text strong>{step.name || t(`automation.actions.${step.type}`, { defaultValue: step.type })}</Typography.Text>
              <Tag>{step.stepId}</Tag>
              <Tag color={step.ok ? 'green' : 'red'}>{t(step.ok ? 'automation.testRun.ok' : 'automation.testRun.failed')}</Tag>
              <Typography.Text type="secondary">{t('automation.log.ms', { n: step.durationMs })}</Typography.Text>
            </Flex>
            {step.error && <Typography.Text type="danger">{t('automation.testRun.error')}：{step.error}</Typography.Text>}
            {step.output !== undefined && step.output !== null && (
              <>
                <Typography.Text type="secondary">{t('automation.testRun.output')}</Typography.Text>
                <JsonBlock value={step.output} />
              </>
            )}
          </Flex>
        </Card>
      ))}
    </Flex>
  );
}

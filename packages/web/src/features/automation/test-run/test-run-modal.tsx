import { useState } from 'react';
import { Alert, AutoComplete, Button, Flex, Form, Modal, Tag, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { automationApi, automationFormApi, automationKeys } from '../automation-api.ts';
import { checkDraft, isRecordless, type AutomationDraft } from '../designer/draft.ts';
import { StepLogList } from '../run-log/step-log-list.tsx';
import type { AutomationForm } from '../use-automation-form.ts';

/** The form's latest records to test against (a person may also type an id). */
function useRecentRecords(schemaCode: string, enabled: boolean) {
  return useQuery({
    queryKey: automationKeys.records(schemaCode),
    queryFn: () => automationFormApi.recentRecords(schemaCode),
    enabled,
  });
}

/**
 * 试运行: the unsaved automation against a chosen record on the server, in a transaction rolled back — each step's
 * output and whether the condition matched; nothing written, nothing sent.
 */
export function TestRunModal({ form, draft, onClose }: { form: AutomationForm; draft: AutomationDraft; onClose: () => void }) {
  const { t } = useTranslation();
  const needsRecord = !isRecordless(draft.trigger.type);
  const recent = useRecentRecords(form.schemaCode, needsRecord);
  const [objectId, setObjectId] = useState('');
  const run = useMutation({
    mutationFn: () => {
      const checked = checkDraft(draft, () => '');
      if (!checked.ok) throw new Error(checked.problems.join('；'));
      return automationApi.testRun({ schemaCode: form.schemaCode, automation: checked.automation, ...(objectId.trim() ? { objectId: objectId.trim() } : {}) });
    },
  });
  const rows = (recent.data?.list ?? []) as { ObjectId: string; Name?: string | null }[];
  const result = run.data;
  const failure = run.error ? (isApiError(run.error) ? run.error.errorMessage : run.error.message) : null;
  return (
    <Modal open title={t('automation.testRun.title')} width={720} onCancel={onClose} footer={null} destroyOnHidden>
      <Flex vertical gap="middle">
        <Alert type="warning" showIcon title={t('automation.testRun.notice')} description={t('automation.testRun.noticeDetail')} />
        <Form layout="vertical" component={false}>
          {needsRecord && (
            <Form.Item label={t('automation.testRun.record')} htmlFor="test-run-record" style={{ marginBottom: 12 }}>
              <AutoComplete id="test-run-record" value={objectId} onChange={(v: string) => setObjectId(v)} placeholder={t('automation.testRun.recordPlaceholder')} allowClear
                options={rows.map((r) => ({ value: r.ObjectId, label: r.Name ? `${r.Name}（${r.ObjectId}）` : r.ObjectId }))} />
            </Form.Item>
          )}
          <Button type="primary" loading={run.isPending} disabled={needsRecord && !objectId.trim()} onClick={() => run.mutate()}>
            {t('automation.testRun.run')}
          </Button>
        </Form>
        {failure && <Alert type="error" showIcon title={t('automation.testRun.failedToStart')} description={failure} />}
        {result && (
          <Flex vertical gap="small" role="region" aria-label={t('automation.testRun.title')}>
            <Tag color={result.matched ? 'green' : 'default'} style={{ alignSelf: 'flex-start' }}>
              {t(result.matched ? 'automation.testRun.matched' : 'automation.testRun.notMatched')}
            </Tag>
            {result.error && <Alert type="error" showIcon title={t('automation.testRun.error')} description={result.error} />}
            {result.steps.length === 0 ? <Typography.Text type="secondary">{t('automation.testRun.noSteps')}</Typography.Text> : <StepLogList steps={result.steps} />}
          </Flex>
        )}
      </Flex>
    </Modal>
  );
}

import { useState } from 'react';
import { Alert, Button, Drawer, Flex, Input, InputNumber, Radio, Select, Tag, Timeline, Typography, theme } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DepartmentPicker, UserPicker } from '../../../components/org-picker/index.ts';
import { workflowDesignApi, workflowDesignKeys, type DryRunResult } from '../api/workflow-design-api.ts';
import { NUMBER_FIELD_TYPES, PEOPLE_FIELD_TYPES, useDesignContext, type FieldInfo } from '../model/design-context.ts';
import { forServer, type ActivityType, type Template } from '../model/template-model.ts';

interface Props {
  open: boolean;
  onClose: () => void;
  template: Template;
  result: DryRunResult | null;
  onResult: (r: DryRunResult | null) => void;
}

type Picked = { id: string; name: string } | null;

function FieldValue({ field, value, onChange }: { field: FieldInfo; value: unknown; onChange: (v: unknown) => void }) {
  if (NUMBER_FIELD_TYPES.includes(field.typeKey)) return <InputNumber aria-label={field.name} style={{ width: '100%' }} value={typeof value === 'number' ? value : null} onChange={(v) => onChange(v ?? null)} />;
  if (field.typeKey.toLowerCase().includes('user')) return <UserPicker aria-label={field.name} value={(value as Picked) ?? null} onChange={onChange} />;
  if (field.typeKey.toLowerCase().includes('department')) return <DepartmentPicker aria-label={field.name} value={(value as Picked) ?? null} onChange={onChange} />;
  return <Input aria-label={field.name} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />;
}

/** The dry run: a sample record (or typed values) through the design, showing the path and who receives each node. */
export function DryRunDrawer({ open, onClose, template, result, onResult }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { schemaCode, fields } = useDesignContext();
  const [mode, setMode] = useState<'record' | 'values'>('record');
  const [objectId, setObjectId] = useState<string>();
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [originator, setOriginator] = useState<Picked>(null);
  const records = useQuery({ queryKey: workflowDesignKeys.records(schemaCode), queryFn: () => workflowDesignApi.records(schemaCode), enabled: open });
  const typed = fields.filter((f) => NUMBER_FIELD_TYPES.includes(f.typeKey) || PEOPLE_FIELD_TYPES.includes(f.typeKey) || ['textBox', 'radio', 'dropdown', 'textArea'].includes(f.typeKey));
  const run = useMutation({
    mutationFn: () => {
      // People fields hold ids; the pickers hold {id, name}.
      const plain = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v && typeof v === 'object' && 'id' in v ? (v as { id: string }).id : v]));
      return workflowDesignApi.dryRun({
        schemaCode,
        template: forServer(template),
        ...(mode === 'record' ? { objectId } : { values: plain, ...(originator ? { originatorId: originator.id } : {}) }),
      });
    },
    onSuccess: onResult,
  });
  const nameOf = (code: string) => template.activities.find((a) => a.code === code)?.name ?? code;

  return (
    <Drawer open={open} onClose={onClose} title={t('workflowDesigner.dryRun.title')} size={440} mask={false} destroyOnHidden={false}>
      <Flex vertical gap="middle">
        <Radio.Group
          value={mode}
          onChange={(e) => setMode(e.target.value)}
          optionType="button"
          options={(['record', 'values'] as const).map((m) => ({ value: m, label: t(`workflowDesigner.dryRun.modes.${m}`) }))}
        />
        {mode === 'record' ? (
          <Select
            aria-label={t('workflowDesigner.dryRun.record')}
            placeholder={records.data?.list.length === 0 ? t('workflowDesigner.dryRun.noRecords') : t('workflowDesigner.dryRun.record')}
            loading={records.isLoading}
            value={objectId}
            onChange={setObjectId}
            options={(records.data?.list ?? []).map((r) => ({ value: String(r.ObjectId), label: String(r.Name || r.ObjectId) }))}
          />
        ) : (
          <Flex vertical gap="small">
            {typed.map((f) => (
              <Flex key={f.code} vertical gap={2}>
                <Typography.Text type="secondary">{f.name}</Typography.Text>
                <FieldValue field={f} value={values[f.code]} onChange={(v) => setValues((s) => ({ ...s, [f.code]: v }))} />
              </Flex>
            ))}
            <Typography.Text type="secondary">{t('workflowDesigner.dryRun.originator')}</Typography.Text>
            <UserPicker aria-label={t('workflowDesigner.dryRun.originator')} placeholder={t('workflowDesigner.dryRun.originatorDefault')} value={originator} onChange={setOriginator} />
          </Flex>
        )}
        <Button type="primary" icon={<PlayCircleOutlined />} loading={run.isPending} disabled={mode === 'record' && !objectId} onClick={() => run.mutate()}>
          {t('workflowDesigner.dryRun.run')}
        </Button>
        {result && (
          <section aria-label={t('workflowDesigner.dryRun.result')}>
            <Typography.Paragraph type="secondary">{t('workflowDesigner.dryRun.as', { name: result.originator.name })}</Typography.Paragraph>
            {!result.reachesEnd && <Alert type="warning" showIcon style={{ marginBottom: token.marginSM }} title={t('workflowDesigner.dryRun.noEnd')} />}
            <Timeline
              items={result.steps.map((step) => ({
                color: step.blocked ? 'red' : step.type === 'End' ? 'gray' : 'green',
                content: (
                  <Flex vertical gap={2}>
                    <Flex gap="small" align="center">
                      <Typography.Text strong>{step.name}</Typography.Text>
                      <Tag>{t(`workflowDesigner.types.${step.type as ActivityType}`)}</Tag>
                    </Flex>
                    {step.participants.length > 0 && step.type !== 'Start' && <Typography.Text>{t('workflowDesigner.dryRun.receivers', { names: step.participants.map((p) => p.name).join('、') })}</Typography.Text>}
                    {step.whenEmpty && <Typography.Text type="warning">{t(`workflowDesigner.dryRun.nobody.${step.whenEmpty}`)}</Typography.Text>}
                    {step.blocked && <Typography.Text type="danger">{t('workflowDesigner.dryRun.blocked')}</Typography.Text>}
                    {(step.type === 'Condition' || step.type === 'Parallel') && step.next.length > 0 && (
                      <Typography.Text type="secondary">{t('workflowDesigner.dryRun.takes', { names: step.next.map((n) => nameOf(n.to)).join('、') })}</Typography.Text>
                    )}
                  </Flex>
                ),
              }))}
            />
          </section>
        )}
      </Flex>
    </Drawer>
  );
}

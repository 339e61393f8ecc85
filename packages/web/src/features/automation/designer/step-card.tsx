import { Button, Card, Flex, Input, Tag } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AutomationForm } from '../use-automation-form.ts';
import { DataStepEditor } from './data-step-editor.tsx';
import type { StepDraft, StepOf } from './draft.ts';
import { AttendanceStepEditor } from './attendance-step-editor.tsx';
import { ConnectorStepEditor } from './connector-step-editor.tsx';
import { HttpStepEditor } from './http-step-editor.tsx';
import { MessageStepEditor } from './message-step-editor.tsx';
import { PaymentStepEditor } from './payment-step-editor.tsx';
import { useStepSources } from './use-step-sources.ts';

interface StepCardProps {
  steps: readonly StepDraft[];
  index: number;
  form: AutomationForm;
  onChange: (step: StepDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

/** One step of the flow: its number and type, a name, reorder and remove, and the settings of its type. */
export function StepCard({ steps, index, form, onChange, onMove, onRemove }: StepCardProps) {
  const { t } = useTranslation();
  const step = steps[index]!;
  const sources = useStepSources(steps, index, form.sources);
  const label = t(`automation.actions.${step.type}`);
  const body = (() => {
    switch (step.type) {
      case 'insert':
      case 'update':
      case 'remove':
      case 'query':
        return <DataStepEditor step={step} onChange={onChange} earlier={steps.slice(0, index)} fields={form.sources} sources={sources} />;
      case 'notification':
      case 'email':
      case 'sms':
      case 'robot':
        return <MessageStepEditor step={step} onChange={onChange} viewFields={form.viewFields} sources={sources} />;
      case 'http':
        return <HttpStepEditor step={step} onChange={onChange} fields={form.sources} sources={sources} />;
      case 'connector':
        return <ConnectorStepEditor step={step} onChange={onChange} fields={form.sources} />;
      case 'payment':
        return <PaymentStepEditor step={step as StepOf<'payment'>} onChange={onChange} form={form} />;
      case 'attendance':
        return <AttendanceStepEditor step={step as StepOf<'attendance'>} onChange={onChange} />;
    }
  })();
  return (
    <Card
      size="small"
      role="group"
      aria-label={`${index + 1}. ${label}`}
      title={
        <Flex align="center" gap="small" style={{ minWidth: 0 }}>
          <Tag color="blue" style={{ marginInlineEnd: 0 }}>{index + 1}</Tag>
          <span>{label}</span>
        </Flex>
      }
      extra={
        <Flex gap={2}>
          <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={t('automation.designer.moveUp')} disabled={index === 0} onClick={() => onMove(-1)} />
          <Button type="text" size="small" icon={<ArrowDownOutlined />} aria-label={t('automation.designer.moveDown')} disabled={index === steps.length - 1} onClick={() => onMove(1)} />
          <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('automation.designer.removeStep')} onClick={onRemove} />
        </Flex>
      }
    >
      <Input aria-label={t('automation.designer.stepName')} placeholder={`${t('automation.designer.stepName')}（${t('automation.designer.stepId', { id: step.id })}）`}
        value={step.name ?? ''} maxLength={50} style={{ marginBottom: 12 }} onChange={(e) => onChange({ ...step, name: e.target.value })} />
      {body}
    </Card>
  );
}

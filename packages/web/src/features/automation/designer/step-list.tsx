import { Button, Dropdown, Empty, Flex } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { AUTOMATION_ACTIONS, AUTOMATION_STEPS_MAX, PLUGIN_ACTIONS } from '@tritium/shared/automation/index';
import type { AutomationForm } from '../use-automation-form.ts';
import { newStep, type StepDraft } from './draft.ts';
import { FlowArrow } from './flow-arrow.tsx';
import { StepCard } from './step-card.tsx';

type AddableAction = Exclude<(typeof AUTOMATION_ACTIONS)[number], (typeof PLUGIN_ACTIONS)[number]>;
// The order a person looks for them in: data first, then messages, then outside calls. Attendance and payment
// actions are offered only when a plugin provides them (issue 21), and no plugin does yet.
const ORDER: readonly AddableAction[] = ['insert', 'update', 'remove', 'query', 'notification', 'email', 'sms', 'robot', 'http', 'connector'];

/** The steps as cards joined by arrows, and 添加动作 at the end. */
export function StepList({ steps, form, onChange }: { steps: StepDraft[]; form: AutomationForm; onChange: (steps: StepDraft[]) => void }) {
  const { t } = useTranslation();
  const move = (i: number, by: -1 | 1) => {
    const next = [...steps];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    onChange(next);
  };
  return (
    <Flex vertical>
      {steps.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('automation.designer.noSteps')} />}
      {steps.map((step, i) => (
        <Flex vertical key={step.id}>
          <StepCard steps={steps} index={i} form={form} onMove={(by) => move(i, by)} onRemove={() => onChange(steps.filter((_, j) => j !== i))}
            onChange={(next) => onChange(steps.map((s, j) => (j === i ? next : s)))} />
          <FlowArrow />
        </Flex>
      ))}
      <Dropdown
        trigger={['click']}
        disabled={steps.length >= AUTOMATION_STEPS_MAX}
        menu={{
          items: ORDER.map((type) => ({ key: type, label: t(`automation.actions.${type}`) })),
          onClick: ({ key }) => onChange([...steps, newStep(key as AddableAction, steps)]),
        }}
      >
        <Button type="dashed" block icon={<PlusOutlined />}>{t('automation.designer.addStep')}</Button>
      </Dropdown>
    </Flex>
  );
}

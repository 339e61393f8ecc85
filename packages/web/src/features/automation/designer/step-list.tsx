import { Button, Dropdown, Empty, Flex, Tooltip } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AUTOMATION_STEPS_MAX, type AutomationActionType } from '@tritium/shared/automation/index';
import { pluginKeys, pluginsApi } from '../../plugins/plugins-api.ts';
import type { AutomationForm } from '../use-automation-form.ts';
import { isPluginAction, newStep, type StepDraft } from './draft.ts';
import { FlowArrow } from './flow-arrow.tsx';
import { StepCard } from './step-card.tsx';

// The order a person looks for them in: data first, then messages, then outside calls, then the plugins' steps.
const ORDER: readonly AutomationActionType[] = ['insert', 'update', 'remove', 'query', 'notification', 'email', 'sms', 'robot', 'http', 'connector', 'payment', 'attendance'];

/**
 * The plugin steps the engine can run (docs/decisions/0123): an installed instance offers the action. The others stay
 * in the menu, disabled, naming the plugin to install — hidden, a person would not know the step exists.
 */
function usePluginActions() {
  const { t } = useTranslation();
  const instances = useQuery({ queryKey: pluginKeys.instances, queryFn: pluginsApi.instances });
  const items = instances.data?.items ?? [];
  return (type: AutomationActionType): string | null => {
    if (!isPluginAction(type)) return null;
    const offering = items.filter((i) => i.offers.automationActions.includes(type));
    if (offering.some((i) => i.status === 'installed')) return null;
    return t('automation.designer.installPlugin', { name: offering[0]?.name ?? t(`plugins.automationNames.${type}`) });
  };
}

/** The steps as cards joined by arrows, and 添加动作 at the end. */
export function StepList({ steps, form, onChange }: { steps: StepDraft[]; form: AutomationForm; onChange: (steps: StepDraft[]) => void }) {
  const { t } = useTranslation();
  const missingPlugin = usePluginActions();
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
          items: ORDER.map((type) => {
            const missing = missingPlugin(type);
            const label = t(`automation.actions.${type}`);
            return { key: type, disabled: !!missing, label: missing ? <Tooltip title={missing} placement="right"><span>{label}</span></Tooltip> : label };
          }),
          onClick: ({ key }) => onChange([...steps, newStep(key as AutomationActionType, steps)]),
        }}
      >
        <Button type="dashed" block icon={<PlusOutlined />}>{t('automation.designer.addStep')}</Button>
      </Dropdown>
    </Flex>
  );
}

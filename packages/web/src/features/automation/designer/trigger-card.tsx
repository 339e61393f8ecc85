import { Card, Form, Select, Typography } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { AUTOMATION_TRIGGERS } from '@tritium/shared/automation/index';
import type { AutomationDto } from '../automation-api.ts';
import type { AutomationForm } from '../use-automation-form.ts';
import { newTrigger, type TriggerDraft } from './draft.ts';
import { ButtonSettings } from './button-settings.tsx';
import { ChangingSettings, DateSettings, TimingSettings } from './trigger-settings.tsx';
import { WebhookSettings } from './webhook-settings.tsx';
import { InboundSettings } from '../../connector-ends/inbound-settings.tsx';

interface TriggerCardProps {
  trigger: TriggerDraft;
  onChange: (trigger: TriggerDraft) => void;
  form: AutomationForm;
  /** The automation as saved (the webhook URL exists only then). */
  saved: AutomationDto | undefined;
}

/** The flow's first card: the trigger type and its settings (connector shown, needing a plugin). */
export function TriggerCard({ trigger, onChange, form, saved }: TriggerCardProps) {
  const { t } = useTranslation();
  const settings = (() => {
    switch (trigger.type) {
      case 'changing': return <ChangingSettings trigger={trigger} onChange={onChange} form={form} />;
      case 'date': return <DateSettings trigger={trigger} onChange={onChange} form={form} />;
      case 'timing': return <TimingSettings trigger={trigger} onChange={onChange} form={form} />;
      case 'webhook': return <WebhookSettings saved={saved?.trigger.type === 'webhook' ? saved : undefined} />;
      case 'button': return <ButtonSettings trigger={trigger} onChange={onChange} form={form} />;
      case 'custom': return <Typography.Text type="secondary">{t('automation.trigger.custom')}</Typography.Text>;
      case 'connector': return <InboundSettings saved={saved?.trigger.type === 'connector' ? saved : undefined} />;
      default: return null;
    }
  })();
  return (
    <Card size="small" role="group" aria-label={t('automation.designer.trigger')} title={<><ThunderboltOutlined /> {t('automation.designer.trigger')}</>}>
      <Form layout="vertical" component={false}>
        <Form.Item label={t('automation.designer.triggerType')} htmlFor="trigger-type" style={{ marginBottom: 12 }}>
          <Select
            id="trigger-type"
            virtual={false}
            value={trigger.type}
            // The connector trigger needs the connector plugin: saving without it answers the catalogue's 430001.
            options={AUTOMATION_TRIGGERS.map((type) => ({ value: type, label: t(`automation.triggers.${type}`) }))}
            onChange={(type) => onChange(newTrigger(type))}
          />
        </Form.Item>
        {settings}
      </Form>
    </Card>
  );
}

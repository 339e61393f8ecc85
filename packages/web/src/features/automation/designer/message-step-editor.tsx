import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Recipients } from '@tritium/shared/automation/index';
import { SMS_CONTENT_MAX_LENGTH } from '@tritium/shared/constants/limits';
import type { ViewField } from '../automation-api.ts';
import type { StepOf } from './draft.ts';
import { RecipientsInput } from './recipients-input.tsx';
import { TemplateInput } from './template-input.tsx';
import type { StepSources } from './use-step-sources.ts';

type MessageStep = StepOf<'notification'> | StepOf<'email'> | StepOf<'sms'> | StepOf<'robot'>;

const EMPTY: Recipients = { owner: false, creator: false, fields: [], userIds: [], addresses: [] };

/** Notification, e-mail, SMS and robot steps: who (not the robot: its group is the channel's), a title and a content with placeholders. */
export function MessageStepEditor({ step, onChange, viewFields, sources }: { step: MessageStep; onChange: (step: MessageStep) => void; viewFields: ViewField[]; sources: StepSources }) {
  const { t } = useTranslation();
  const set = (patch: Partial<MessageStep>) => onChange({ ...step, ...patch } as MessageStep);
  const titleLabel = t(step.type === 'email' ? 'automation.step.subject' : 'automation.step.title');
  return (
    <Form layout="vertical" component={false}>
      {step.type !== 'robot' && (
        <RecipientsInput id={step.id} value={{ ...EMPTY, ...step.recipients }} onChange={(recipients) => set({ recipients })} viewFields={viewFields}
          addresses={step.type === 'email' ? 'email' : step.type === 'sms' ? 'sms' : null} />
      )}
      {step.type !== 'sms' && (
        <Form.Item label={titleLabel} htmlFor={`${step.id}-title`} style={{ marginBottom: 12 }}>
          <TemplateInput id={`${step.id}-title`} label={titleLabel} value={step.title} maxLength={200} sources={sources.placeholders} onChange={(title) => set({ title })} />
        </Form.Item>
      )}
      <Form.Item label={t('automation.step.content')} htmlFor={`${step.id}-content`} style={{ marginBottom: 12 }}>
        <TemplateInput id={`${step.id}-content`} label={t('automation.step.content')} value={step.content ?? ''} rows={3} maxLength={step.type === 'email' ? 10000 : step.type === 'sms' ? SMS_CONTENT_MAX_LENGTH : 2000}
          sources={sources.placeholders} onChange={(content) => set({ content })} />
      </Form.Item>
    </Form>
  );
}

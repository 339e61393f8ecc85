import { Alert, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AutomationForm } from '../use-automation-form.ts';
import type { StepOf } from './draft.ts';

type PaymentStep = StepOf<'payment'>;

/** The payment plugin's code, which the form designer writes into the plugin control it draws. */
export const PAYMENT_PLUGIN = 'payment';

/**
 * The payment step (docs/decisions/0123, payment): which payment control of the trigger form gets a payment
 * started; the amount and subject are that control's own settings, read from the record by the server.
 */
export function PaymentStepEditor({ step, onChange, form }: { step: PaymentStep; onChange: (step: PaymentStep) => void; form: AutomationForm }) {
  const { t } = useTranslation();
  const controls = form.pluginControls.filter((c) => c.pluginCode === PAYMENT_PLUGIN);
  const controlCode = typeof step.settings?.controlCode === 'string' ? step.settings.controlCode : '';
  return (
    <Form layout="vertical" component={false}>
      <Form.Item label={t('automation.step.paymentControl')} htmlFor={`${step.id}-payment`} extra={t('automation.step.paymentHelp')} style={{ marginBottom: 12 }}>
        <Select id={`${step.id}-payment`} placeholder={t('automation.step.paymentControlPlaceholder')} value={controlCode || undefined}
          options={controls.map((c) => ({ value: c.code, label: c.name }))} onChange={(code: string) => onChange({ ...step, settings: { ...step.settings, controlCode: code } })} />
      </Form.Item>
      {controls.length === 0 && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('automation.step.noPaymentControls')} />}
    </Form>
  );
}

import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { definePluginStep } from '../automation/plugin-steps.ts';
import { RetryableStepError } from '../automation/automation-steps.ts';
import { paymentControlOf, PAYMENT_TEMPLATE } from './payment-record.ts';
import { precreate } from './payment.service.ts';

// The automation's payment step (docs/decisions/0123, payment): for the trigger record, precreate the payment of one
// of the form's payment controls (its QR code and state land on the control's value). It runs inside the run's
// transaction; the provider's network failures are retried with the run, its refusals fail the step.

const StepSettings = z.strictObject({ controlCode: z.string().trim().min(1).max(64) });

function settingsOf(settings: Record<string, unknown>): z.infer<typeof StepSettings> {
  const parsed = StepSettings.safeParse(settings);
  if (!parsed.success) throw new AppError('ParameterVerificationFailed', { detail: { issues: [{ path: 'settings.controlCode', message: '请选择表单的在线支付控件' }] } });
  return parsed.data;
}

const RETRYABLE = new Set(['PaymentGatewayUnreachable', 'PaymentGatewayTimeout']);

definePluginStep('payment', {
  templates: [PAYMENT_TEMPLATE],
  async check(_edb, form, settings) {
    paymentControlOf(form, settingsOf(settings).controlCode);
  },
  async run(run, settings) {
    const { controlCode } = settingsOf(settings);
    paymentControlOf(run.form, controlCode);
    const objectId = run.record.objectId;
    if (!objectId) throw new AppError('BizObjectNotFound', { detail: { objectId: null } });
    if (run.dryRun) return { controlCode, objectId, sent: false };
    try {
      const order = await precreate(run.actor, { schemaCode: run.form.node.code, objectId, controlCode }, { http: run.fetch, publicUrl: run.deliveries.publicUrl }, { edb: run.edb, transact: (work) => work(run.edb) });
      return { orderNo: order.orderNo, state: order.state, amount: order.amount };
    } catch (error) {
      if (error instanceof AppError && RETRYABLE.has(error.errorName)) throw new RetryableStepError(error.message);
      throw error;
    }
  },
});

import { useCallback, useEffect, useState } from 'react';
import { Button, Flex, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import { useRuntimeForm } from '../components/form-context.ts';
import type { DisplayProps, FieldProps } from './field-types.ts';
import { paymentApi, paymentKeys, type PaymentOrderDto } from '../../payment/payment-api.ts';
import { PayQrDialog, RefundDialog } from '../../payment/pay-dialogs.tsx';

// The payment plugin's control (docs/decisions/0123, payment). Its value is written by the server only (the order's
// state and amounts); the control shows it, starts a payment of a saved record (a QR code, polled until paid), and
// refunds for those allowed. The amount is the record's as saved: the server reads it, never the browser.

type PaymentValue = contracts.PaymentValue;

const STATE_COLORS: Record<contracts.PaymentState, string> = { WAIT_BUYER_PAY: 'orange', TRADE_SUCCESS: 'green', TRADE_CLOSED: 'default', TRADE_FINISHED: 'blue' };

const asValue = (value: unknown): PaymentValue | null => {
  const parsed = contracts.PaymentValue.safeParse(value);
  return parsed.success ? parsed.data : null;
};

const valueOfOrder = (order: PaymentOrderDto): PaymentValue => ({
  orderNo: order.orderNo,
  state: order.state,
  amount: order.amount,
  paidAmount: order.paidAmount,
  refundedAmount: order.refundedAmount,
  paidTime: order.paidTime,
});

/** The state's words: a closed order that was refunded in full reads 已退款, a partial refund 部分退款. */
function useStateText() {
  const { t } = useTranslation();
  return (value: PaymentValue | null) => {
    if (!value) return { text: t('payment.states.none'), color: 'default' };
    const refunded = contracts.fenOfText(value.refundedAmount) ?? 0;
    if (refunded > 0 && value.state === 'TRADE_CLOSED') return { text: t('payment.states.refunded'), color: 'purple' };
    if (refunded > 0 && value.state === 'TRADE_SUCCESS') return { text: t('payment.states.partlyRefunded'), color: 'gold' };
    return { text: t(`payment.states.${value.state}` as const), color: STATE_COLORS[value.state] };
  };
}

function PaySummary({ value }: { value: PaymentValue | null }) {
  const { t } = useTranslation();
  const stateOf = useStateText();
  const { text, color } = stateOf(value);
  return (
    <Flex gap={8} align="center" wrap>
      <Tag color={color} data-testid="payment-state" style={{ marginInlineEnd: 0 }}>
        {text}
      </Tag>
      {value && <Typography.Text strong>{t('payment.amountValue', { amount: value.amount })}</Typography.Text>}
      {value?.paidAmount && <Typography.Text type="secondary">{t('payment.paidAmount', { amount: value.paidAmount })}</Typography.Text>}
      {value && (contracts.fenOfText(value.refundedAmount) ?? 0) > 0 && <Typography.Text type="secondary">{t('payment.refundedAmount', { amount: value.refundedAmount })}</Typography.Text>}
    </Flex>
  );
}

/** The control with its actions, for an open record (Edit, and View: paying does not edit the record's fields). */
function PayPanel({ controlCode, value, onValue, disabled }: { controlCode: string; value: unknown; onValue?: (value: PaymentValue) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const form = useRuntimeForm();
  const queryClient = useQueryClient();
  const objectId = typeof form.system.ObjectId === 'string' && form.system.ObjectId ? form.system.ObjectId : null;
  const target = objectId ? { schemaCode: form.schemaCode, objectId, controlCode } : null;
  // While a form being edited holds a waiting order, the provider's notify may land meanwhile: the order is read again
  // now and then, so that the form's copy of the value follows and a later save does not write an older one back.
  const latest = useQuery({
    queryKey: target ? paymentKeys.order(target) : ['payment', 'none'],
    queryFn: () => paymentApi.order(target!),
    enabled: !!target,
    refetchInterval: (query) => (onValue && query.state.data?.order?.state === 'WAIT_BUYER_PAY' ? 5000 : false),
  });
  const [order, setOrder] = useState<PaymentOrderDto | null>(null);
  const [dialog, setDialog] = useState<'qr' | 'refund' | null>(null);
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    const found = latest.data?.order;
    if (!found) return;
    setOrder(found);
    const held = asValue(value);
    const next = valueOfOrder(found);
    if (onValue && (!held || held.orderNo !== next.orderNo || held.state !== next.state || held.refundedAmount !== next.refundedAmount)) onValue(next);
    // Only a new answer from the server is compared; the form's value changing is this effect's own doing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [latest.data]);

  const shown = order ? valueOfOrder(order) : asValue(value);
  const changed = useCallback(
    (next: PaymentOrderDto) => {
      setOrder(next);
      // The open form's copy of the value follows, so a later save of the form does not write back an older one.
      onValue?.(valueOfOrder(next));
      if (target) void queryClient.invalidateQueries({ queryKey: paymentKeys.order(target) });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [onValue, queryClient, target?.objectId, target?.schemaCode, controlCode],
  );
  const closeDialog = useCallback(() => setDialog(null), []);

  const pay = async () => {
    if (!target) return;
    setStarting(true);
    try {
      const next = await paymentApi.precreate(target);
      changed(next);
      if (next.state === 'WAIT_BUYER_PAY') setDialog('qr');
    } catch {
      // The client has shown the server's message (no amount, the plugin not installed, the provider's refusal…).
    } finally {
      setStarting(false);
    }
  };

  const state = shown?.state;
  const mayPay = !state || state === 'WAIT_BUYER_PAY' || (state === 'TRADE_CLOSED' && (contracts.fenOfText(shown?.refundedAmount ?? '0') ?? 0) === 0);
  const mayRefund = !!order && order.canRefund && order.state === 'TRADE_SUCCESS' && (contracts.fenOfText(order.refundable) ?? 0) > 0;
  return (
    <Flex vertical gap={8} style={{ alignSelf: 'stretch' }}>
      <PaySummary value={shown} />
      <Flex gap={8} wrap>
        {mayPay && (
          <Button type="primary" disabled={disabled || !target} loading={starting} onClick={() => void pay()}>
            {state === 'TRADE_CLOSED' ? t('payment.payAgain') : t('payment.pay')}
          </Button>
        )}
        {mayRefund && (
          <Button disabled={disabled} onClick={() => setDialog('refund')}>
            {t('payment.refund')}
          </Button>
        )}
      </Flex>
      {!target && <Typography.Text type="secondary">{t('payment.saveFirst')}</Typography.Text>}
      {shown?.paidTime && <Typography.Text type="secondary">{t('payment.paidTime', { time: new Date(shown.paidTime).toLocaleString() })}</Typography.Text>}
      {dialog === 'qr' && order && <PayQrDialog order={order} onChange={changed} onClose={closeDialog} />}
      {dialog === 'refund' && order && <RefundDialog order={order} onDone={changed} onClose={closeDialog} />}
    </Flex>
  );
}

/** The payment plugin's control in an editing form. */
export function PayField({ control, value, onChange, disabled }: FieldProps) {
  return <PayPanel controlCode={control.code} value={value} onValue={onChange} disabled={disabled} />;
}

/** The control in a record being read: the same actions (paying changes no field); print shows the state only. */
export function PayDisplay({ control, value, print }: DisplayProps) {
  if (print) return <PaySummary value={asValue(value)} />;
  return <PayPanel controlCode={control.code} value={value} />;
}

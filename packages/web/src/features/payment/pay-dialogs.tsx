import { useEffect, useMemo, useState } from 'react';
import { App, Button, Flex, Form, Input, Modal, Spin, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import { qrSvg } from '@tritium/shared/print/qr';
import { paymentApi, type PaymentOrderDto } from './payment-api.ts';

/** How often the QR dialog asks whether the order was paid. */
export const POLL_MS = 2000;

/**
 * The QR code of a waiting order: while open it queries the order every 2 s (the provider's notify may also have
 * landed) and hands back each change; once the order is no longer waiting it says so and closes.
 */
export function PayQrDialog({ order, onChange, onClose }: { order: PaymentOrderDto; onChange: (order: PaymentOrderDto) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qrSource = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg(order.qrCode ?? ''))}`, [order.qrCode]);
  const [closing, setClosing] = useState(false);

  useEffect(() => {
    if (order.state !== 'WAIT_BUYER_PAY') return;
    let stopped = false;
    const timer = window.setInterval(() => {
      paymentApi
        .query(order.orderNo, true)
        .then((next) => {
          if (stopped || next.state === 'WAIT_BUYER_PAY') return;
          stopped = true;
          window.clearInterval(timer);
          onChange(next);
          if (next.state === 'TRADE_SUCCESS' || next.state === 'TRADE_FINISHED') void message.success(t('payment.paid'));
          onClose();
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [order.orderNo, order.state, onChange, onClose, message, t]);

  const closeOrder = () =>
    modal.confirm({
      title: t('payment.closeConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        setClosing(true);
        try {
          onChange(await paymentApi.close(order.orderNo));
          void message.success(t('payment.closed'));
          onClose();
        } finally {
          setClosing(false);
        }
      },
    });

  return (
    <Modal
      open
      title={t('payment.qrTitle')}
      onCancel={onClose}
      footer={[
        <Button key="close-order" danger loading={closing} onClick={closeOrder}>
          {t('payment.closeOrder')}
        </Button>,
        <Button key="ok" type="primary" onClick={onClose}>
          {t('common.ok')}
        </Button>,
      ]}
      width={360}
    >
      <Flex vertical align="center" gap={8}>
        <Typography.Text strong style={{ fontSize: 24 }}>
          {t('payment.amountValue', { amount: order.amount })}
        </Typography.Text>
        <Typography.Text type="secondary">{order.subject}</Typography.Text>
        <img data-testid="payment-qr" src={qrSource} alt={t('payment.qrAlt')} width={200} height={200} />
        <Flex gap={8} align="center">
          <Spin size="small" />
          <Typography.Text>{t('payment.waiting')}</Typography.Text>
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
          {t('payment.qrHint')}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('payment.orderNo', { orderNo: order.orderNo })}
        </Typography.Text>
      </Flex>
    </Modal>
  );
}

/** A refund of part or all of what may still be refunded, with its reason; the history below. */
export function RefundDialog({ order, onDone, onClose }: { order: PaymentOrderDto; onDone: (order: PaymentOrderDto) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ amount: string; reason: string }>();
  const [saving, setSaving] = useState(false);
  const refundableFen = contracts.fenOfText(order.refundable) ?? 0;
  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const next = await paymentApi.refund({ orderNo: order.orderNo, amount: values.amount.trim(), reason: values.reason?.trim() ?? '' });
      void message.success(t('payment.refundDone', { amount: contracts.yuanOf(contracts.fenOfText(values.amount.trim()) ?? 0) }));
      onDone(next);
      onClose();
    } catch {
      // The client has shown the server's message (more than may be refunded, the provider's refusal…).
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={t('payment.refundTitle')} okText={t('payment.refundOk')} cancelText={t('common.cancel')} confirmLoading={saving} onOk={() => void submit()} onCancel={onClose} width={440}>
      <Typography.Paragraph type="secondary">{t('payment.refundable', { amount: order.refundable })}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ amount: order.refundable, reason: '' }}>
        <Form.Item
          name="amount"
          label={t('payment.refundAmount')}
          rules={[
            { required: true, message: t('payment.refundAmountRequired') },
            {
              validator: async (_rule, value: string) => {
                const fen = contracts.fenOfText(String(value ?? ''));
                if (value && (fen === null || fen <= 0 || fen > refundableFen)) throw new Error(t('payment.refundAmountInvalid'));
              },
            },
          ]}
        >
          <Input inputMode="decimal" prefix="¥" />
        </Form.Item>
        <Form.Item name="reason" label={t('payment.refundReason')}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
      {order.refunds.length > 0 && (
        <>
          <Typography.Text strong>{t('payment.refundHistory')}</Typography.Text>
          <Table
            size="small"
            rowKey="requestNo"
            pagination={false}
            dataSource={order.refunds}
            columns={[
              { dataIndex: 'amount', title: t('payment.amount'), width: 100 },
              { dataIndex: 'reason', title: t('payment.refundReason') },
            ]}
          />
        </>
      )}
    </Modal>
  );
}

import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import type { contracts } from '@tritium/shared';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { RuntimeFormContext, type RuntimeFormState } from '../components/form-context.ts';
import { runtimeControl } from './test-harness.tsx';
import { PayField } from './pay-field.tsx';

// The payment control in an open record: 发起支付 shows the QR code, the dialog asks for the order until it is paid and
// the form's value follows; a refund for those allowed; a record not saved yet says so and starts nothing.

const order = (over: Partial<contracts.PaymentOrderDto> = {}): contracts.PaymentOrderDto => ({
  orderNo: 'P1', schemaCode: 'Dues', objectId: 'rec-1', controlCode: 'F_plugin', subject: '年卡会费', amount: '88.80', state: 'WAIT_BUYER_PAY',
  qrCode: 'https://qr.alipay.com/fake1', tradeNo: null, paidAmount: null, paidTime: null, refundedAmount: '0.00', refundable: '0.00', canRefund: true, refunds: [], ...over,
});

function renderPay(objectId: string | null) {
  const onChange = vi.fn();
  const state = {
    schemaCode: 'Dues', mode: 'Edit', device: 'pc', titleWidth: 100, form: { values: {}, children: {} }, system: objectId ? { ObjectId: objectId } : {}, errors: {},
    setValue: () => undefined, setRows: () => undefined,
  } satisfies RuntimeFormState;
  render(
    <WorkbenchProviders queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RuntimeFormContext.Provider value={state}>
        <PayField control={runtimeControl('plugin', { pluginCode: 'payment' }, '在线支付')} value={null} onChange={onChange} id="pay" invalid={false} device="pc" schemaCode="Dues" />
      </RuntimeFormContext.Provider>
    </WorkbenchProviders>,
  );
  return onChange;
}

describe('payment control', () => {
  it('shows the QR code, polls until paid, and the value follows', async () => {
    let paid = false;
    const stub = stubFetch({
      'GET /v1/payment/order': () => ok({ order: null }),
      'POST /v1/payment/precreate': () => ok(order()),
      'POST /v1/payment/query': () => ok(paid ? order({ state: 'TRADE_SUCCESS', paidAmount: '88.80', qrCode: null, refundable: '88.80' }) : order()),
    });
    const onChange = renderPay('rec-1');
    expect(await screen.findByText('未支付')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '发起支付' }));
    expect(await screen.findByTestId('payment-qr')).toBeTruthy();
    expect(stub.callsTo('POST', '/v1/payment/precreate')[0]!.body).toEqual({ schemaCode: 'Dues', objectId: 'rec-1', controlCode: 'F_plugin' });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ orderNo: 'P1', state: 'WAIT_BUYER_PAY' }));
    paid = true;
    await waitFor(() => expect(screen.queryByTestId('payment-qr')).toBeNull(), { timeout: 6000 });
    expect(await screen.findByText('已支付')).toBeTruthy();
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ state: 'TRADE_SUCCESS', paidAmount: '88.80' }));
    expect(screen.getByRole('button', { name: '退款' })).toBeTruthy();
  }, 15_000);

  it('refunds the amount typed, with its reason', async () => {
    const paidOrder = order({ state: 'TRADE_SUCCESS', paidAmount: '88.80', qrCode: null, refundable: '88.80' });
    const stub = stubFetch({
      'GET /v1/payment/order': () => ok({ order: paidOrder }),
      'POST /v1/payment/refund': () => ok({ ...paidOrder, refundedAmount: '20.00', refundable: '68.80' }),
    });
    renderPay('rec-1');
    await userEvent.click(await screen.findByRole('button', { name: '退款' }));
    const amount = await screen.findByLabelText('退款金额（元）');
    await userEvent.clear(amount);
    await userEvent.type(amount, '20');
    await userEvent.type(screen.getByLabelText('退款原因'), '少上一节课');
    await userEvent.click(screen.getAllByRole('button', { name: /退\s*款/ }).at(-1)!);
    await waitFor(() => expect(stub.callsTo('POST', '/v1/payment/refund')).toHaveLength(1));
    expect(stub.callsTo('POST', '/v1/payment/refund')[0]!.body).toEqual({ orderNo: 'P1', amount: '20', reason: '少上一节课' });
    expect(await screen.findByText('部分退款')).toBeTruthy();
  });

  it('asks for the record to be saved first', async () => {
    const stub = stubFetch({});
    renderPay(null);
    expect(screen.getByText('请先保存记录，再发起支付')).toBeTruthy();
    expect((screen.getByRole('button', { name: '发起支付' }) as HTMLButtonElement).disabled).toBe(true);
    expect(stub.callsTo('POST', '/v1/payment/precreate')).toHaveLength(0);
  });
});

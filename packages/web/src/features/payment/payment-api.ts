import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// The payment plugin's calls (docs/decisions/0123, payment): the record control's latest order, precreate (the QR
// code), query (polled while the QR dialog is open), close and refund.

export type PaymentOrderDto = contracts.PaymentOrderDto;
export type PaymentTarget = contracts.PaymentTargetBody;

const base = '/v1/payment';

export const paymentKeys = {
  order: (target: PaymentTarget) => ['payment', 'order', target.schemaCode, target.objectId, target.controlCode] as const,
};

export const paymentApi = {
  order: (target: PaymentTarget) => apiClient.get<contracts.PaymentOrderResult>(`${base}/order`, { query: { ...target } }),
  precreate: (target: PaymentTarget) => apiClient.post<PaymentOrderDto>(`${base}/precreate`, target),
  /** Polled while the QR code shows: its failures are not shown each time (the next poll may succeed). */
  query: (orderNo: string, quiet = false) => apiClient.post<PaymentOrderDto>(`${base}/query`, { orderNo }, quiet ? { disableBizError: true, disableSysError: true } : {}),
  close: (orderNo: string) => apiClient.post<PaymentOrderDto>(`${base}/close`, { orderNo }),
  refund: (body: contracts.PaymentRefundBody) => apiClient.post<PaymentOrderDto>(`${base}/refund`, body),
};

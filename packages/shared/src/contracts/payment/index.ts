import { z } from 'zod';
import { codeSchema } from '../../validation/zod.ts';

// The payment plugin (issue 44; docs/decisions/0123, payment). Members who may read a record start, query and close
// its payment; the app's administrators and the record's owner refund. Amounts travel as yuan text with two
// decimals ("88.80") and are kept in fen: never as floating point.

export const PAYMENT_STATES = ['WAIT_BUYER_PAY', 'TRADE_SUCCESS', 'TRADE_CLOSED', 'TRADE_FINISHED'] as const;
export const PaymentState = z.enum(PAYMENT_STATES);
export type PaymentState = z.infer<typeof PaymentState>;

/** At most 10 000 000 yuan per order (fits the fen column and stays under the provider's own limit). */
export const MAX_PAYMENT_FEN = 1_000_000_000;

/** "88.80" from 8880 fen. */
export function yuanOf(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Fen of a yuan text ("88.8", "88.80", "88"), or null when it is not a positive-or-zero amount with at most 2 decimals. */
export function fenOfText(text: string): number | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Fen of a number field's value, or null when it has more than 2 decimals or is not finite. */
export function fenOfNumber(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  const fen = Math.round(value * 100);
  return Math.abs(value * 100 - fen) < 1e-6 ? fen : null;
}

/** What a payment control's value on the record holds (written by the server only). */
export const PaymentValue = z.object({
  orderNo: z.string(),
  state: PaymentState,
  amount: z.string(),
  paidAmount: z.string().nullable(),
  refundedAmount: z.string(),
  paidTime: z.string().nullable(),
});
export type PaymentValue = z.infer<typeof PaymentValue>;

const Amount = z.string().trim().regex(/^\d{1,8}(\.\d{1,2})?$/, '金额须为最多两位小数的正数');

/** POST /v1/payment/precreate and GET /v1/payment/order: the record and its payment control. */
export const PaymentTargetBody = z.strictObject({ schemaCode: codeSchema, objectId: z.string().min(1).max(64), controlCode: codeSchema });
export type PaymentTargetBody = z.infer<typeof PaymentTargetBody>;
export const PaymentOrderNoBody = z.strictObject({ orderNo: z.string().min(1).max(64) });
export type PaymentOrderNoBody = z.infer<typeof PaymentOrderNoBody>;
export const PaymentRefundBody = z.strictObject({ orderNo: z.string().min(1).max(64), amount: Amount, reason: z.string().trim().max(200).default('') });
export type PaymentRefundBody = z.infer<typeof PaymentRefundBody>;

export const PaymentRefundDto = z.object({ requestNo: z.string(), amount: z.string(), reason: z.string(), state: z.enum(['REFUND_SUCCESS', 'REFUND_FAILED']), createdTime: z.string() });
export type PaymentRefundDto = z.infer<typeof PaymentRefundDto>;

export const PaymentOrderDto = z.object({
  orderNo: z.string(),
  schemaCode: z.string(),
  objectId: z.string(),
  controlCode: z.string(),
  subject: z.string(),
  amount: z.string(),
  state: PaymentState,
  /** The code to show as a QR code while the order waits for the buyer. */
  qrCode: z.string().nullable(),
  tradeNo: z.string().nullable(),
  paidAmount: z.string().nullable(),
  paidTime: z.string().nullable(),
  refundedAmount: z.string(),
  /** What the caller may still refund (0.00 when they may not refund). */
  refundable: z.string(),
  canRefund: z.boolean(),
  refunds: z.array(PaymentRefundDto),
});
export type PaymentOrderDto = z.infer<typeof PaymentOrderDto>;
/** The record control's latest order, or null before the first payment. */
export const PaymentOrderResult = z.object({ order: PaymentOrderDto.nullable() });
export type PaymentOrderResult = z.infer<typeof PaymentOrderResult>;

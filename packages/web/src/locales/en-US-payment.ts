import type { Catalogue } from './zh-CN.ts';
import type { zhCNPayment } from './zh-CN-payment.ts';

// en-US of zh-CN-payment.ts.
export const enUSPayment: Catalogue<typeof zhCNPayment> = {
  title: 'Payment',
};

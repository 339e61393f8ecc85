// zh-CN of the payment plugin: the pay control, its QR dialog, refunds (issue 44; docs/decisions/0123). Joined into zh-CN-workbench.ts under `payment`.
export const zhCNPayment = {
  title: '在线支付',
};

import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { findEngine } from '../engine/engine.repo.ts';
import { loadInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { alipayConfigOf } from './alipay-client.ts';
import { fromChinaTime, signingText, verifyRsa2 } from './alipay-signing.ts';
import { PAYMENT_TEMPLATE } from './payment-record.ts';
import { applyTrade, findOrder } from './payment.service.ts';

// The provider's asynchronous notify (docs/decisions/0123, payment): a form-encoded POST to the notify URL sent with
// the precreate. Believed only when its RSA2 signature verifies with the platform's public key over the sorted
// parameters except sign and sign_type, its app_id is the plugin's, the order exists and its total_amount is the
// order's. Applying it is idempotent (a state already reached changes nothing); the provider wants the text `success`.

const rejected = (reason: string) => new AppError('PaymentNotifyRejected', { detail: { reason } });

export async function receiveNotify(db: Db, engineCode: string, body: string): Promise<'success'> {
  if (!(await findEngine(db, engineCode))) throw rejected('engine');
  const params = Object.fromEntries(new URLSearchParams(body)) as Record<string, string>;
  const edb = engineDb(db, engineCode);
  const plugin = await loadInstalledPlugin(edb, PAYMENT_TEMPLATE);
  if (!plugin) throw rejected('not installed');
  let config;
  try {
    config = alipayConfigOf(plugin);
  } catch {
    throw rejected('settings');
  }
  if (params.sign_type !== 'RSA2' || !verifyRsa2(signingText(params, ['sign', 'sign_type']), params.sign ?? '', config.platformPublicKey)) throw rejected('signature');
  if (params.app_id !== config.appId) throw rejected('app_id');
  const order = params.out_trade_no ? await findOrder(edb, params.out_trade_no) : undefined;
  if (!order) throw rejected('out_trade_no');
  if (contracts.fenOfText(params.total_amount ?? '') !== order.amount_fen) throw rejected('total_amount');
  const state = contracts.PaymentState.safeParse(params.trade_status);
  if (!state.success) throw rejected('trade_status');
  await applyTrade({ db, engineCode }, order.out_trade_no, { state: state.data, tradeNo: params.trade_no || null, paidFen: order.amount_fen, paidTime: fromChinaTime(params.gmt_payment) });
  return 'success';
}

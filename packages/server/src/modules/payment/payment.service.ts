import { randomBytes } from 'node:crypto';
import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, inEngineTransaction, type NodeContext } from '../function-node/node-context.ts';
import { requireInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { AlipayRefusal, alipayConfigOf, callAlipay, type AlipayConfig, type AlipayDeps } from './alipay-client.ts';
import { fromChinaTime } from './alipay-signing.ts';
import { amountAndSubject, amountIssue, readOrderRecord, readTarget, writeOrderValue, PAYMENT_TEMPLATE, type OrderRow } from './payment-record.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import type { RecordRow } from '../business-data/records.repo.ts';

// The payment methods (docs/decisions/0123, payment): precreate (a QR code for a record's payment control), query,
// close and refund, each against the provider first (outside any transaction: the call may take seconds), then the
// order and the record's control value changed together in one transaction.

/**
 * Where the methods read and write: a request's own connection and transactions, or an automation run's transaction
 * (the embedded database has one connection, which the run holds: the step works inside it).
 */
export interface PaymentScope {
  edb: EngineExecutor;
  transact<T>(work: (edb: EngineExecutor) => Promise<T>): Promise<T>;
}

export const scopeOf = (ctx: Pick<NodeContext, 'db' | 'engineCode'>): PaymentScope => ({ edb: engineOf(ctx), transact: (work) => inEngineTransaction(ctx, work) });

export interface PaymentDeps extends AlipayDeps {
  /** The platform's public address, ending in '/': the notify URL is built from it. */
  publicUrl: string;
}

type State = contracts.PaymentState;

const STATE_TEXT: Record<State, { zh: string; en: string }> = {
  WAIT_BUYER_PAY: { zh: '待支付', en: 'waiting for payment' },
  TRADE_SUCCESS: { zh: '已支付', en: 'paid' },
  TRADE_CLOSED: { zh: '已关闭', en: 'closed' },
  TRADE_FINISHED: { zh: '已完成', en: 'finished' },
};

function notAllowed(state: State, action: { zh: string; en: string }): AppError {
  return new AppError('PaymentStateNotAllowed', { detail: { state: STATE_TEXT[state].zh, stateEn: STATE_TEXT[state].en, action: action.zh, actionEn: action.en } });
}

/** Which way a state may move: forward only (a late or repeated message never takes an order back). */
const NEXT: Record<State, readonly State[]> = {
  WAIT_BUYER_PAY: ['TRADE_SUCCESS', 'TRADE_FINISHED', 'TRADE_CLOSED'],
  TRADE_SUCCESS: ['TRADE_FINISHED', 'TRADE_CLOSED'],
  TRADE_CLOSED: [],
  TRADE_FINISHED: [],
};

export function newNumber(prefix: string, now: Date): string {
  return `${prefix}${now.toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(6).toString('hex')}`;
}

export function notifyUrlOf(publicUrl: string, engineCode: string): string {
  return `${publicUrl.replace(/\/?$/, '/')}v1/payment/notify/${encodeURIComponent(engineCode)}`;
}

async function configOf(edb: EngineExecutor): Promise<AlipayConfig> {
  return alipayConfigOf(await requireInstalledPlugin(edb, PAYMENT_TEMPLATE));
}

export async function findOrder(edb: EngineExecutor, orderNo: string, forUpdate = false): Promise<OrderRow | undefined> {
  let query = edb.selectFrom('payment_orders').selectAll().where('out_trade_no', '=', orderNo);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

async function requireOrder(edb: EngineExecutor, orderNo: string): Promise<OrderRow> {
  const order = await findOrder(edb, orderNo);
  if (!order) throw new AppError('PaymentOrderNotFound', { detail: { orderNo } });
  return order;
}

/** Refunds: the app's administrators and the record's owner (whoever answers for the record's money). */
export function mayRefund(form: RuntimeForm, row: RecordRow, userId: string): boolean {
  return form.isAppAdmin || row.OwnerId === userId;
}

export async function presentOrder(edb: EngineExecutor, order: OrderRow, canRefund: boolean): Promise<contracts.PaymentOrderDto> {
  const refunds = await edb.selectFrom('payment_refunds').selectAll().where('out_trade_no', '=', order.out_trade_no).orderBy('created_time').execute();
  const refundableFen = order.state === 'TRADE_SUCCESS' && canRefund ? (order.paid_fen ?? order.amount_fen) - order.refunded_fen : 0;
  return {
    orderNo: order.out_trade_no,
    schemaCode: order.schema_code,
    objectId: order.object_id,
    controlCode: order.control_code,
    subject: order.subject,
    amount: contracts.yuanOf(order.amount_fen),
    state: order.state,
    qrCode: order.state === 'WAIT_BUYER_PAY' ? order.qr_code : null,
    tradeNo: order.trade_no,
    paidAmount: order.paid_fen === null ? null : contracts.yuanOf(order.paid_fen),
    paidTime: order.paid_time ? new Date(order.paid_time).toISOString() : null,
    refundedAmount: contracts.yuanOf(order.refunded_fen),
    refundable: contracts.yuanOf(Math.max(0, refundableFen)),
    canRefund,
    refunds: refunds.map((r) => ({ requestNo: r.out_request_no, amount: contracts.yuanOf(r.amount_fen), reason: r.reason, state: r.state, createdTime: new Date(r.created_time).toISOString() })),
  };
}

export interface TradeChange {
  state: State;
  tradeNo?: string | null;
  paidFen?: number | null;
  paidTime?: Date | null;
}

/**
 * Moves an order to the provider's state (forward only) and writes the record's control, in one transaction; a change
 * already made (a second notify, a query after the notify) changes nothing. Answers the order as it stands.
 */
export async function applyTrade(base: Pick<NodeContext, 'db' | 'engineCode'>, orderNo: string, change: TradeChange, userId?: string, scope = scopeOf(base)): Promise<OrderRow> {
  return scope.transact(async (edb) => {
    const order = await findOrder(edb, orderNo, true);
    if (!order) throw new AppError('PaymentOrderNotFound', { detail: { orderNo } });
    if (!NEXT[order.state].includes(change.state)) return order;
    const paid = change.state !== 'TRADE_CLOSED' || order.state !== 'WAIT_BUYER_PAY';
    const updated = await edb
      .updateTable('payment_orders')
      .set({
        state: change.state,
        trade_no: change.tradeNo ?? order.trade_no,
        ...(paid && order.paid_fen === null ? { paid_fen: change.paidFen ?? order.amount_fen, paid_time: change.paidTime ?? new Date() } : {}),
        modified_time: new Date(),
      })
      .where('out_trade_no', '=', orderNo)
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeOrderValue(edb, base, userId ?? order.created_by, updated);
    return updated;
  });
}

/** Precreate: the record's open order when its amount and subject still hold, else a new one with a QR code. */
export async function precreate(ctx: NodeContext, target: contracts.PaymentTargetBody, deps: PaymentDeps, scope = scopeOf(ctx)): Promise<contracts.PaymentOrderDto> {
  const { edb } = scope;
  const config = await configOf(edb);
  const { form, row, control } = await readTarget(edb, ctx, target);
  const { amountFen, subject } = amountAndSubject(form, control, row);
  const open = await findOpenOrder(edb, target);
  if (open && open.amount_fen === amountFen && open.subject === subject) return presentOrder(edb, open, mayRefund(form, row, ctx.userId));
  // The record's amount changed since: the old QR code must not be paid any more.
  if (open) await closeAtProvider(ctx, config, open, deps, scope);
  const now = deps.now?.() ?? new Date();
  const orderNo = newNumber('P', now);
  const answer = await callAlipay(config, 'alipay.trade.precreate', { out_trade_no: orderNo, total_amount: contracts.yuanOf(amountFen), subject }, deps, notifyUrlOf(deps.publicUrl, ctx.engineCode));
  const qrCode = typeof answer.qr_code === 'string' ? answer.qr_code : null;
  if (!qrCode) throw new AppError('PaymentGatewaySignatureInvalid');
  const plugin = await requireInstalledPlugin(edb, PAYMENT_TEMPLATE);
  let order: OrderRow;
  try {
    order = await scope.transact(async (tx) => {
      const inserted = await tx
        .insertInto('payment_orders')
        .values({ out_trade_no: orderNo, plugin_code: plugin.code, schema_code: target.schemaCode, object_id: target.objectId, control_code: target.controlCode, subject, amount_fen: amountFen, state: 'WAIT_BUYER_PAY', qr_code: qrCode, created_by: ctx.userId })
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeOrderValue(tx, ctx, ctx.userId, inserted);
      return inserted;
    });
  } catch (error) {
    // Two presses at once: the other one's order is the record's; this trade is closed so its code cannot be paid.
    if ((error as { code?: string }).code !== '23505') throw error;
    await callAlipay(config, 'alipay.trade.close', { out_trade_no: orderNo }, deps).catch(() => undefined);
    const other = await findOpenOrder(edb, target);
    if (!other) throw error;
    order = other;
  }
  return presentOrder(edb, order, mayRefund(form, row, ctx.userId));
}

function findOpenOrder(edb: EngineExecutor, target: contracts.PaymentTargetBody): Promise<OrderRow | undefined> {
  return edb
    .selectFrom('payment_orders')
    .selectAll()
    .where('schema_code', '=', target.schemaCode)
    .where('object_id', '=', target.objectId)
    .where('control_code', '=', target.controlCode)
    .where('state', '=', 'WAIT_BUYER_PAY')
    .executeTakeFirst();
}

/** Closes an open order at the provider (a trade never scanned does not exist there yet) and here. */
async function closeAtProvider(ctx: NodeContext, config: AlipayConfig, order: OrderRow, deps: PaymentDeps, scope = scopeOf(ctx)): Promise<OrderRow> {
  try {
    await callAlipay(config, 'alipay.trade.close', { out_trade_no: order.out_trade_no }, deps);
  } catch (error) {
    if (!(error instanceof AlipayRefusal && error.subCode === 'ACQ.TRADE_NOT_EXIST')) throw error;
  }
  return applyTrade(ctx, order.out_trade_no, { state: 'TRADE_CLOSED' }, ctx.userId, scope);
}

/** Query: asks the provider and moves the order (a trade not yet scanned is still waiting). */
export async function query(ctx: NodeContext, orderNo: string, deps: PaymentDeps): Promise<contracts.PaymentOrderDto> {
  const edb = engineOf(ctx);
  const order = await requireOrder(edb, orderNo);
  const { form, row } = await readOrderRecord(edb, ctx, order);
  let current = order;
  if (order.state === 'WAIT_BUYER_PAY' || order.state === 'TRADE_SUCCESS') {
    const config = await configOf(edb);
    try {
      const answer = await callAlipay(config, 'alipay.trade.query', { out_trade_no: orderNo }, deps);
      const state = contracts.PaymentState.safeParse(answer.trade_status);
      if (state.success && state.data !== order.state) {
        const paidFen = typeof answer.total_amount === 'string' ? contracts.fenOfText(answer.total_amount) : null;
        current = await applyTrade(ctx, orderNo, { state: state.data, tradeNo: typeof answer.trade_no === 'string' ? answer.trade_no : null, paidFen, paidTime: fromChinaTime(answer.send_pay_date as string | undefined) }, ctx.userId);
      }
    } catch (error) {
      if (!(error instanceof AlipayRefusal && error.subCode === 'ACQ.TRADE_NOT_EXIST')) throw error;
    }
  }
  return presentOrder(edb, current, mayRefund(form, row, ctx.userId));
}

export async function close(ctx: NodeContext, orderNo: string, deps: PaymentDeps): Promise<contracts.PaymentOrderDto> {
  const edb = engineOf(ctx);
  const order = await requireOrder(edb, orderNo);
  const { form, row } = await readOrderRecord(edb, ctx, order);
  if (order.state !== 'WAIT_BUYER_PAY') throw notAllowed(order.state, { zh: '关闭', en: 'closed' });
  const closed = await closeAtProvider(ctx, await configOf(edb), order, deps);
  return presentOrder(edb, closed, mayRefund(form, row, ctx.userId));
}

/** Refund part or all of what was paid; a full refund closes the trade, as the provider does. */
export async function refund(ctx: NodeContext, body: contracts.PaymentRefundBody, deps: PaymentDeps): Promise<contracts.PaymentOrderDto> {
  const edb = engineOf(ctx);
  const order = await requireOrder(edb, body.orderNo);
  const { form, row } = await readOrderRecord(edb, ctx, order);
  const fen = contracts.fenOfText(body.amount);
  if (fen === null || fen <= 0) throw amountIssue('amount');
  if (!mayRefund(form, row, ctx.userId)) throw new AppError('PaymentRefundNotAllowed');
  if (order.state !== 'TRADE_SUCCESS') throw notAllowed(order.state, { zh: '退款', en: 'refunded' });
  const refundableFen = (order.paid_fen ?? order.amount_fen) - order.refunded_fen;
  if (fen > refundableFen) throw new AppError('PaymentRefundTooMuch', { detail: { refundable: contracts.yuanOf(refundableFen) } });
  const config = await configOf(edb);
  const requestNo = newNumber('R', deps.now?.() ?? new Date());
  try {
    await callAlipay(config, 'alipay.trade.refund', { out_trade_no: order.out_trade_no, refund_amount: contracts.yuanOf(fen), refund_reason: body.reason || undefined, out_request_no: requestNo }, deps);
  } catch (error) {
    if (error instanceof AlipayRefusal) {
      await edb.insertInto('payment_refunds').values({ out_request_no: requestNo, out_trade_no: order.out_trade_no, amount_fen: fen, reason: body.reason, state: 'REFUND_FAILED', created_by: ctx.userId }).execute();
    }
    throw error;
  }
  const updated = await inEngineTransaction(ctx, async (tx) => {
    const locked = (await findOrder(tx, order.out_trade_no, true))!;
    const refunded = locked.refunded_fen + fen;
    const full = refunded >= (locked.paid_fen ?? locked.amount_fen);
    await tx.insertInto('payment_refunds').values({ out_request_no: requestNo, out_trade_no: order.out_trade_no, amount_fen: fen, reason: body.reason, state: 'REFUND_SUCCESS', created_by: ctx.userId }).execute();
    const next = await tx
      .updateTable('payment_orders')
      .set({ refunded_fen: refunded, ...(full ? { state: 'TRADE_CLOSED' as const } : {}), modified_time: new Date() })
      .where('out_trade_no', '=', order.out_trade_no)
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeOrderValue(tx, ctx, ctx.userId, next);
    return next;
  });
  return presentOrder(edb, updated, true);
}

/** The record control's latest order (for the control to show), or null. */
export async function latestOrder(ctx: NodeContext, target: contracts.PaymentTargetBody): Promise<contracts.PaymentOrderResult> {
  const edb = engineOf(ctx);
  const { form, row } = await readTarget(edb, ctx, target);
  const order = await edb
    .selectFrom('payment_orders')
    .selectAll()
    .where('schema_code', '=', target.schemaCode)
    .where('object_id', '=', target.objectId)
    .where('control_code', '=', target.controlCode)
    .orderBy('created_time', 'desc')
    .orderBy('out_trade_no', 'desc')
    .executeTakeFirst();
  return { order: order ? await presentOrder(edb, order, mayRefund(form, row, ctx.userId)) : null };
}

import { contracts } from '@tritium/shared';
import { UserAuthType } from '@tritium/shared/constants/org';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { canReadRecord } from '../business-data/record-policy.ts';
import { presentValues } from '../business-data/record.presenter.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import { findRecord, type RecordRow } from '../business-data/records.repo.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { flattenControls } from '../form-design/form-model.ts';
import type { PaymentOrderTable } from '../../db/types.ts';
import type { Selectable } from 'kysely';

// A payment control on a record (docs/decisions/0123, payment): the form's plugin control whose plugin is the payment
// plugin, the amount and subject read from the fields its pluginSettings name — always from the stored record, never
// from the browser — and the control's value written back through the business data's save, as a system write.

export type OrderRow = Selectable<PaymentOrderTable>;

export const PAYMENT_TEMPLATE = 'payment';

export interface PaymentControl {
  code: string;
  name: string;
  amountField: string | null;
  subjectField: string | null;
}

/** The form's payment control of this code, or 440001. A plugin control whose plugin is not the payment plugin is not one. */
export function paymentControlOf(form: RuntimeForm, controlCode: string, pluginCode = PAYMENT_TEMPLATE): PaymentControl {
  const place = flattenControls(form.definition.controls).find((p) => p.control.code === controlCode);
  const options = (place?.control.options ?? {}) as { displayName?: string; pluginCode?: string | null; pluginSettings?: Record<string, unknown> };
  if (!place || place.type.key !== 'plugin' || options.pluginCode !== pluginCode) throw new AppError('PaymentControlInvalid', { detail: { name: options.displayName || controlCode } });
  const text = (key: string) => (typeof options.pluginSettings?.[key] === 'string' && options.pluginSettings[key] ? (options.pluginSettings[key] as string) : null);
  return { code: controlCode, name: options.displayName || controlCode, amountField: text('amountField'), subjectField: text('subjectField') };
}

const fieldName = (form: RuntimeForm, code: string) => String(form.fields.find((f) => f.code === code)?.options.displayName ?? code);

/** The amount (fen) and subject of a record for its payment control; refusals name the field at fault. */
export function amountAndSubject(form: RuntimeForm, control: PaymentControl, row: RecordRow): { amountFen: number; subject: string } {
  const amountField = control.amountField ? form.fields.find((f) => f.code === control.amountField && f.type.key === 'number') : undefined;
  if (!amountField) throw new AppError('PaymentFieldsNotSet', { detail: { name: control.name } });
  const values = presentValues(form.fields, row);
  const raw = values[amountField.code];
  const amountFen = typeof raw === 'number' ? contracts.fenOfNumber(raw) : typeof raw === 'string' ? contracts.fenOfText(raw) : null;
  if (amountFen === null || amountFen <= 0 || amountFen > contracts.MAX_PAYMENT_FEN) throw new AppError('PaymentAmountInvalid', { detail: { field: fieldName(form, amountField.code) } });
  let subject = '';
  if (control.subjectField) {
    const value = values[control.subjectField];
    subject = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
    if (!subject) throw new AppError('PaymentSubjectEmpty', { detail: { field: fieldName(form, control.subjectField) } });
  } else {
    subject = String(row.Name ?? '').trim() || form.node.display_name;
  }
  // The provider takes at most 256 characters.
  return { amountFen, subject: subject.slice(0, 256) };
}

/** The caller's form, the record (which the caller must be able to read) and its payment control. */
export async function readTarget(edb: EngineExecutor, ctx: NodeContext, target: { schemaCode: string; objectId: string; controlCode: string }): Promise<{ form: RuntimeForm; row: RecordRow; control: PaymentControl }> {
  const form = await getRuntimeFormOrThrow(edb, ctx, target.schemaCode);
  const control = paymentControlOf(form, target.controlCode);
  const row = await findRecord(edb, form, target.objectId).catch(() => undefined);
  if (!row || !(await canReadRecord(edb, form, row, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId: target.objectId } });
  return { form, row, control };
}

/** The caller may read the order's record; answers the caller's form and the record. */
export async function readOrderRecord(edb: EngineExecutor, ctx: NodeContext, order: OrderRow): Promise<{ form: RuntimeForm; row: RecordRow }> {
  const { form, row } = await readTarget(edb, ctx, { schemaCode: order.schema_code, objectId: order.object_id, controlCode: order.control_code }).catch((error: unknown) => {
    // A record the caller cannot read hides its orders too.
    if (error instanceof AppError && error.errorName !== 'PaymentControlInvalid') throw new AppError('PaymentOrderNotFound', { detail: { orderNo: order.out_trade_no } });
    throw error;
  });
  return { form, row };
}

export function valueOf(order: OrderRow): contracts.PaymentValue {
  return {
    orderNo: order.out_trade_no,
    state: order.state,
    amount: contracts.yuanOf(order.amount_fen),
    paidAmount: order.paid_fen === null ? null : contracts.yuanOf(order.paid_fen),
    refundedAmount: contracts.yuanOf(order.refunded_fen),
    paidTime: order.paid_time ? new Date(order.paid_time).toISOString() : null,
  };
}

/**
 * Writes the order's state onto its record's control, inside the caller's transaction: with the system's standing
 * (a business rule's write: no edit right asked of the person), in the name of `userId` for the data log. The record's
 * status stays what it is. A record removed since is left alone (the order keeps the truth).
 */
export async function writeOrderValue(edb: EngineExecutor, base: Pick<NodeContext, 'db' | 'engineCode'>, userId: string, order: OrderRow): Promise<void> {
  const form = await new FormCache(edb).get(order.schema_code);
  if (!form || !form.fields.some((f) => f.code === order.control_code)) return;
  const row = await findRecord(edb, form, order.object_id, { forUpdate: true });
  if (!row) return;
  const actor: NodeContext = { db: base.db, engineCode: base.engineCode, userId, authType: UserAuthType.Administrator };
  await saveRecordIn(edb, actor, form, { objectId: order.object_id, submit: false, values: { [order.control_code]: valueOf(order) } }, { editRight: 'businessRule', status: (current) => current ?? 0, locked: row });
}

/** A 777 for a bad amount text in a body. */
export function amountIssue(path: string): AppError {
  return parameterError([{ path, message: '金额须为大于 0、最多两位小数的数' }]);
}

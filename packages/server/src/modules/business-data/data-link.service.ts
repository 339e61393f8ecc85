import type { contracts } from '@tritium/shared';
import type { DataLink } from '@tritium/shared/controls/options/base';
import type { FilterLeaf } from '@tritium/shared/query/index';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { walkControls } from '../form-design/form-model.ts';
import { queryRecords } from './record-query-port.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from './runtime-form.ts';
import type { AnyControlType } from '@tritium/shared/controls/index';

// Data links (数据联动, h3yun-facts §2.11; docs/decisions/0016): a control takes `resultField` of the first Effective
// record of another form whose condition fields equal this record's; any empty condition clears it. Read with the
// caller's access to the other form: a form they may not open links nothing.

const isBlank = (value: unknown) => value == null || value === '' || (Array.isArray(value) && value.length === 0);

/** A control of the published definition by path (`Code`, or `Grid.Code` for a sub-table column). */
export interface ControlAt {
  code: string;
  gridCode?: string;
  type: AnyControlType;
  options: Record<string, unknown>;
}

// Worked out once per form object: a batch's records ask for them record after record (issue 26).
const controlsOfForm = new WeakMap<RuntimeForm, readonly ControlAt[]>();

/** Every control of the form but the sub-tables themselves (a sub-table's columns with their gridCode); not to be changed. */
export function controlsOf(form: RuntimeForm): readonly ControlAt[] {
  let controls = controlsOfForm.get(form);
  if (!controls) controlsOfForm.set(form, (controls = walkedControls(form)));
  return controls;
}

function walkedControls(form: RuntimeForm): ControlAt[] {
  const out: ControlAt[] = [];
  walkControls(form.definition.controls, ({ control, type, gridCode }) => {
    if (type.key === 'gridView') return;
    out.push({ code: control.code, ...(gridCode ? { gridCode } : {}), type, options: control.options as Record<string, unknown> });
  });
  return out;
}

export function controlAt(form: RuntimeForm, path: string): ControlAt | undefined {
  const [first, second] = path.split('.');
  return controlsOf(form).find((c) => (second ? c.gridCode === first && c.code === second : !c.gridCode && c.code === first));
}

export const dataLinkOf = (control: ControlAt | undefined): DataLink | null => (control?.options.dataLink as DataLink | null | undefined) ?? null;

/** Whether an error means "the caller may not open that form" (or it is gone / unpublished): nothing to link. */
export function isClosedForm(error: unknown): boolean {
  return error instanceof AppError && (error.status === 404 || error.errorName === 'FormNotPublished' || error.errorName === 'FormNodeNotForm');
}

/** A value of another control turned into one this control stores, or null when it cannot hold it. */
export function valueForControl(type: AnyControlType, value: unknown): unknown {
  if (isBlank(value)) return null;
  const schema = type.value as { safeParse(v: unknown): { success: boolean; data?: unknown } } | null;
  const accepts = (v: unknown) => (schema ? schema.safeParse(v).success : true);
  if (accepts(value)) return value;
  const candidates: unknown[] = [];
  if (Array.isArray(value)) candidates.push(value.map(String).join(';'), value[0]);
  if (typeof value === 'number' || typeof value === 'boolean') candidates.push(String(value));
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) candidates.push(Number(value));
  if (typeof value === 'string') candidates.push([value]);
  return candidates.find(accepts) ?? null;
}

/**
 * The linked record and value for one link and the values of its condition fields (this form's codes). null when a
 * condition is empty, nothing matches, or the caller may not open the source form.
 */
export async function findLinked(ctx: NodeContext, link: DataLink, values: Readonly<Record<string, unknown>>): Promise<{ objectId: string; value: unknown } | null> {
  const leaves: FilterLeaf[] = [];
  for (const condition of link.conditions) {
    const raw = values[condition.field];
    if (isBlank(raw)) return null;
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (Array.isArray(value)) leaves.push({ field: condition.sourceField, operator: 'Equal', value: value.map(String) });
    else if (typeof value === 'object') return null;
    else leaves.push({ field: condition.sourceField, operator: 'Equal', value: value as string | number | boolean });
  }
  try {
    const page = await queryRecords(ctx, {
      schemaCode: link.schemaCode,
      filter: { type: 'And', children: leaves },
      status: [1],
      sort: [{ field: 'CreatedTime', direction: 'asc' }],
      pageIndex: 0,
      pageSize: 1,
    });
    const record = page.list[0];
    return record ? { objectId: String(record.ObjectId), value: record[link.resultField] ?? null } : null;
  } catch (error) {
    if (isClosedForm(error)) return null;
    throw error;
  }
}

/** POST /v1/form/loaddatalink/batch. */
export async function loadDataLinkBatch(ctx: NodeContext, body: { schemaCode: string; items: { controlCode: string; values: Record<string, unknown> }[] }): Promise<contracts.DataLinkBatchResult> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  const list = [];
  for (const item of body.items) {
    const control = controlAt(form, item.controlCode);
    const link = dataLinkOf(control);
    if (!control || !link) throw new AppError('DataLinkNotConfigured', { detail: { controlCode: item.controlCode } });
    const found = await findLinked(ctx, link, item.values);
    list.push({ controlCode: item.controlCode, value: found ? valueForControl(control.type, found.value) : null, objectId: found?.objectId ?? null });
  }
  return { list };
}

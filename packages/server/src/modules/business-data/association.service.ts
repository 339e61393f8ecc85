import type { contracts } from '@tritium/shared';
import { associationFilterToQuery } from '@tritium/shared/formula/index';
import type { FilterNode } from '@tritium/shared/query/index';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { queryRecords } from './record-query-port.ts';
import { controlAt, controlsOf, isClosedForm, valueForControl, type ControlAt } from './data-link.service.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from './runtime-form.ts';

// Association queries (关联表单, single and multi; h3yun-facts §2.11; docs/decisions/0016): the records they offer
// (within the control's data range, compiled by the query engine), what choosing one fills (关联填充 mappingControls)
// and associated properties (关联属性, sourcePropertySchema) read through them. The other form is read with the
// caller's access: a member who may not open it is offered and shown nothing.

const ASSOCIATION_TYPES = new Set(['associationQuery', 'associationQueryMulti']);
const ids = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

export interface Association extends ControlAt {
  schemaCode: string;
  filter: string;
  mapping: Record<string, string>;
}

export function associationOf(control: ControlAt | undefined): Association | null {
  if (!control || !ASSOCIATION_TYPES.has(control.type.key) || typeof control.options.schemaCode !== 'string' || !control.options.schemaCode) return null;
  return {
    ...control,
    schemaCode: control.options.schemaCode,
    filter: typeof control.options.associationFilter === 'string' ? control.options.associationFilter : '',
    mapping: (control.options.mappingControls as Record<string, string> | undefined) ?? {},
  };
}

function associationAtOrThrow(form: RuntimeForm, path: string): Association {
  const association = associationOf(controlAt(form, path));
  if (!association) throw new AppError('AssociationNotConfigured', { detail: { controlCode: path } });
  return association;
}

/** The association's data range for the values of the form being filled, as the query engine's filter. */
export function rangeFilter(association: Association, values: Readonly<Record<string, unknown>>, row?: Readonly<Record<string, unknown>>): FilterNode | undefined {
  const compiled = associationFilterToQuery(association.filter, values, { row });
  if (!compiled.ok) throw new AppError('AssociationFilterInvalid', { detail: { controlCode: association.code, error: compiled.error } });
  return compiled.filter;
}

/** POST /v1/form/association/list: Effective records of the other form within the data range, newest first. */
export async function associationList(ctx: NodeContext, body: { schemaCode: string; controlCode: string; values: Record<string, unknown>; row?: Record<string, unknown>; keyword?: string; pageIndex: number; pageSize: number }): Promise<contracts.AssociationListResult> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  const association = associationAtOrThrow(form, body.controlCode);
  const range = rangeFilter(association, body.values, body.row);
  const parts: FilterNode[] = [...(range ? [range] : []), ...(body.keyword ? [{ field: 'Name', operator: 'Contains' as const, value: body.keyword }] : [])];
  return queryRecords(ctx, {
    schemaCode: association.schemaCode,
    ...(parts.length ? { filter: { type: 'And' as const, children: parts } } : {}),
    status: [1],
    pageIndex: body.pageIndex,
    pageSize: body.pageSize,
  });
}

/** Chosen records read ahead for a batch of saves (association-batch.ts ChosenAhead: an import's, docs/decisions/0135). */
export interface ChosenAheadAnswers {
  /** The records chosenRecords would answer, when every id was read ahead under this filter; else undefined. */
  answer(association: Pick<Association, 'schemaCode'>, objectIds: readonly string[], filter: FilterNode | undefined): Record<string, unknown>[] | undefined;
}

/** A context that carries a batch's chosen records read ahead (an import batch's owner). */
export type WithChosenAhead = { chosenAhead?: ChosenAheadAnswers };

/**
 * Records of the association's form by id, as the caller may read them (closed form → none), in the order asked. A
 * context carrying a batch's records read ahead (an import's, association-batch.ts) is answered from them when they
 * hold every id under this filter.
 */
export async function chosenRecords(ctx: NodeContext & WithChosenAhead, association: Pick<Association, 'schemaCode'>, objectIds: readonly string[], filter?: FilterNode): Promise<Record<string, unknown>[]> {
  const wanted = [...new Set(objectIds)];
  if (!wanted.length) return [];
  const ahead = ctx.chosenAhead?.answer(association, objectIds, filter);
  if (ahead) return ahead;
  const byId: FilterNode = { field: 'ObjectId', operator: 'In', value: wanted };
  try {
    const page = await queryRecords(ctx, { schemaCode: association.schemaCode, filter: filter ? { type: 'And', children: [byId, filter] } : byId, pageIndex: 0, pageSize: 500 });
    const found = new Map(page.list.map((record) => [String(record.ObjectId), record]));
    return objectIds.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  } catch (error) {
    if (isClosedForm(error)) return [];
    throw error;
  }
}

/** The associated-property controls that read through `association` (same table). */
export function propertiesThrough(form: RuntimeForm, association: ControlAt): ControlAt[] {
  return controlsOf(form).filter((c) => c.type.key === 'associatedProperty' && c.options.associationCode === association.code && c.gridCode === association.gridCode);
}

const propertyCodeOf = (control: ControlAt) => (control.options.sourcePropertySchema as { propertyCode?: string } | null)?.propertyCode;

/** What choosing `records` fills: mapped fields from the first record, associated properties shown. */
export function fillFrom(form: RuntimeForm, association: Association, records: readonly Record<string, unknown>[]) {
  const first = records[0];
  const values: Record<string, unknown> = {};
  for (const [target, source] of Object.entries(association.mapping)) {
    const control = controlAt(form, association.gridCode ? `${association.gridCode}.${target}` : target);
    if (control) values[target] = first ? valueForControl(control.type, first[source]) : null;
  }
  const properties: Record<string, unknown> = {};
  for (const control of propertiesThrough(form, association)) {
    const code = propertyCodeOf(control);
    properties[control.code] = first && code ? (first[code] ?? null) : null;
  }
  return { values, properties };
}

/** POST /v1/form/association/fill. */
export async function associationFill(ctx: NodeContext, body: { schemaCode: string; controlCode: string; objectIds: string[] }): Promise<contracts.AssociationFillResult> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  const association = associationAtOrThrow(form, body.controlCode);
  const records = await chosenRecords(ctx, association, body.objectIds);
  const names = Object.fromEntries(records.map((record) => [String(record.ObjectId), String(record.Name ?? '')]));
  return { ...fillFrom(form, association, records), names };
}

/**
 * The associated properties of a loaded record (loaddata): each read through its association's stored value, main
 * table and sub-table rows. One read per associated form and table.
 */
export async function associatedPropertyValues(ctx: NodeContext, form: RuntimeForm, values: Record<string, unknown>, children: Record<string, Record<string, unknown>[]>): Promise<void> {
  const properties = controlsOf(form).filter((c) => c.type.key === 'associatedProperty' && typeof c.options.associationCode === 'string');
  for (const property of properties) {
    const association = associationOf(controlAt(form, property.gridCode ? `${property.gridCode}.${property.options.associationCode}` : String(property.options.associationCode)));
    const code = propertyCodeOf(property);
    if (!association || !code) continue;
    const rows = property.gridCode ? (children[property.gridCode] ?? []) : [values];
    const records = await chosenRecords(ctx, association, rows.flatMap((row) => ids(row[association.code])));
    const byId = new Map(records.map((record) => [String(record.ObjectId), record]));
    for (const row of rows) row[property.code] = byId.get(ids(row[association.code])[0])?.[code] ?? null;
  }
}

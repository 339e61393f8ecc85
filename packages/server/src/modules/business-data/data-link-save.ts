import type { FilterNode } from '@tritium/shared/query/index';
import { AppError } from '../../lib/app-error.ts';
import type { Db } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { applyDefaultFormulas } from '@tritium/shared/formula/index';
import { associatedPropertyValues, associationOf, chosenRecords, fillFrom, rangeFilter, type Association } from './association.service.ts';
import { controlsOf, dataLinkOf, findLinked, valueForControl, type ControlAt } from './data-link.service.ts';
import type { CheckedChildRow, CheckedInput } from './record-input.ts';
import { applyFormulas } from './record-formulas.ts';
import type { RuntimeForm } from './runtime-form.ts';
import { checkSubmitRules, unitNamesFor } from './submit-rules.ts';

// On save the server derives what associations fill and data links link, from the record as it will be, whatever the
// client sent (docs/decisions/0016 "On save"). Both follow the product's trigger: they act when the record is new or
// when the association / a link condition changes in this save, so a value a person typed over later stays theirs.
// A chosen association must be a record the association offers (Effective, in its data range, readable by the saver).

type Row = Record<string, unknown>;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);
const EFFECTIVE: FilterNode = { field: 'Status', operator: 'Equal', value: 1 };

interface Scope {
  /** Main values as they will be (stored under sent). */
  main: Row;
  /** The row being saved (a sub-table row) or the main values. */
  target: Row;
  /** The same row as stored, when it exists. */
  before: Row | undefined;
  gridCode?: string;
  /** A sub-table row's own columns. */
  columns?: Set<string>;
  isNew: boolean;
}

function scopesOf(form: RuntimeForm, checked: CheckedInput, stored: { values?: Row; children: Record<string, Row[]> }): Scope[] {
  const main = { ...stored.values, ...checked.values };
  const scopes: Scope[] = [{ main, target: checked.values, before: stored.values, isNew: !stored.values }];
  for (const [gridCode, rows] of checked.children) {
    const old = new Map((stored.children[gridCode] ?? []).map((row) => [String(row.ObjectId), row]));
    const columns = new Set(form.grids.find((g) => g.code === gridCode)?.fields.map((f) => f.code));
    rows.forEach((row: CheckedChildRow) => {
      const before = row.objectId ? old.get(row.objectId) : undefined;
      scopes.push({ main, target: row.values, before, gridCode, columns, isNew: !before });
    });
  }
  return scopes;
}

/** A sub-table row reads its own columns, and the main table's fields by their codes. */
const ownsCode = (scope: Scope, code: string) => !scope.columns || scope.columns.has(code);
const valueIn = (scope: Scope, code: string): unknown =>
  code in scope.target ? scope.target[code] : ownsCode(scope, code) ? scope.before?.[code] : scope.main[code];
function changed(scope: Scope, code: string, main: Scope): boolean {
  if (scope.isNew) return true;
  if (!ownsCode(scope, code)) return changed(main, code, main);
  return code in scope.target && !same(scope.target[code], scope.before?.[code]);
}

const fillersOfForm = new WeakMap<RuntimeForm, { associations: Association[]; links: ControlAt[] }>();
/** The form's association and data-link controls, found once per form object (a batch asks for every record). */
function fillersOf(form: RuntimeForm) {
  let fillers = fillersOfForm.get(form);
  if (!fillers) {
    const controls = controlsOf(form);
    fillers = { associations: controls.map(associationOf).filter((a) => a !== null), links: controls.filter((c) => dataLinkOf(c) !== null) };
    fillersOfForm.set(form, fillers);
  }
  return fillers;
}

export async function applyAssociationsAndLinks(
  ctx: NodeContext,
  form: RuntimeForm,
  checked: CheckedInput,
  stored: { values?: Row; children: Record<string, Row[]> },
): Promise<void> {
  const { associations, links } = fillersOf(form);
  if (!associations.length && !links.length) return;
  const scopes = scopesOf(form, checked, stored);
  const filled = new Set<string>();
  for (const association of associations) {
    for (const target of Object.keys(association.mapping)) filled.add(`${association.gridCode ?? ''}.${target}`);
    for (const scope of scopes.filter((s) => s.gridCode === association.gridCode)) {
      if (!changed(scope, association.code, scopes[0])) continue;
      const chosen = idsOf(valueIn(scope, association.code));
      let records: Row[] = [];
      if (chosen.length) {
        const range = rangeFilter(association, { ...scope.main, ...(association.gridCode ? checkedRows(checked, stored) : {}) }, association.gridCode ? scope.target : undefined);
        records = await chosenRecords(ctx, association, chosen, range ? { type: 'And', children: [EFFECTIVE, range] } : EFFECTIVE);
        if (records.length !== new Set(chosen).size) {
          const path = association.gridCode ? `${association.gridCode}.${association.code}` : association.code;
          throw new AppError('AssociationOutOfRange', { detail: { field: path, objectIds: chosen.filter((id) => !records.some((r) => String(r.ObjectId) === id)) } });
        }
      }
      Object.assign(scope.target, fillFrom(form, association, records).values);
    }
  }
  // A field that an association fills is not linked as well (the product ignores the data link then).
  for (const control of links.filter((c) => !filled.has(`${c.gridCode ?? ''}.${c.code}`))) {
    const link = dataLinkOf(control)!;
    for (const scope of scopes.filter((s) => s.gridCode === control.gridCode)) {
      if (!link.conditions.some((condition) => changed(scope, condition.field, scopes[0]))) continue;
      const conditionValues = Object.fromEntries(link.conditions.map((c) => [c.field, valueIn(scope, c.field)]));
      const found = await findLinked(ctx, link, conditionValues);
      scope.target[control.code] = found ? valueForControl((control as ControlAt).type, found.value) : null;
    }
  }
}

/** Sub-table rows as they will be, for `{this.Grid.Code}`-free filters that aggregate a table: grid code → rows. */
function checkedRows(checked: CheckedInput, stored: { children: Record<string, Row[]> }): Record<string, Row[]> {
  const out: Record<string, Row[]> = { ...stored.children };
  for (const [code, rows] of checked.children) out[code] = rows.map((r) => r.values);
  return out;
}

/**
 * Everything the server derives on a save, in order: association fills and data links, then formulas (which may read
 * them; GETUNITNAME answered with names), then — on Submit — the submit rules over the result. A save with rollups
 * passes `submit: false` and calls `checkSubmitOnSave` once the rollups are in (a rule may read one).
 */
export async function deriveOnSave(
  edb: EngineExecutor,
  ctx: NodeContext,
  form: RuntimeForm,
  checked: CheckedInput,
  stored: { values?: Row; children: Record<string, Row[]> },
  options: { now: Date; submit: boolean },
): Promise<void> {
  // Reads of other forms run on the save's own transaction (one connection on PGlite: docs/decisions/0001).
  await applyAssociationsAndLinks({ ...ctx, db: edb as unknown as Db }, form, checked, stored);
  const children = (): Record<string, Row[]> => Object.fromEntries(form.grids.map((g) => [g.code, checked.children.get(g.code)?.map((r) => r.values) ?? stored.children[g.code] ?? []]));
  const unitName = await unitNamesFor(edb, form, [stored.values, checked.values, children(), ctx.userId]);
  applyFormulas(form, checked, stored, options.now, unitName);
  if (options.submit) checkSubmitRules(form, { ...stored.values, ...checked.values }, children(), { now: options.now, unitName });
}

/** The submit rules over the values as they will be stored (formulas and rollups computed): 250070 when one holds. */
export async function checkSubmitOnSave(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, checked: CheckedInput, stored: { values?: Row; children: Record<string, Row[]> }, now: Date): Promise<void> {
  if (!(form.definition.attributes.submitRules ?? []).length) return;
  const children = Object.fromEntries(form.grids.map((g) => [g.code, checked.children.get(g.code)?.map((r) => r.values) ?? stored.children[g.code] ?? []]));
  const unitName = await unitNamesFor(edb, form, [stored.values, checked.values, children, ctx.userId]);
  checkSubmitRules(form, { ...stored.values, ...checked.values }, children, { now, unitName });
}

/**
 * What loaddata adds to a record: associated properties read through their associations and, for a new record, the
 * default-value formulas computed over the plain defaults (docs/decisions/0016).
 */
export async function deriveOnLoad<T extends { isNew: boolean; values: Row; children: Record<string, Row[]> }>(ctx: NodeContext, form: RuntimeForm, loaded: T): Promise<T> {
  const edb = engineOf(ctx);
  if (loaded.isNew && form.fields.some((f) => typeof f.options.defaultFormula === 'string' && f.options.defaultFormula.trim())) {
    const unitName = await unitNamesFor(edb, form, [loaded.values, ctx.userId]);
    loaded.values = applyDefaultFormulas(form.fields as never, loaded.values, { now: new Date(), unitName });
  }
  await associatedPropertyValues(ctx, form, loaded.values, loaded.children);
  return loaded;
}

import { sql } from 'kysely';
import { UserAuthType } from '@tritium/shared/constants/org';
import { aggregate, filterRows, rollupSourceFields, rollupsOf, subTableRollup, type RollupSpec } from '@tritium/shared/business-rules/index';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { nodeReads } from '../function-node/node-reads.ts';
import type { ContextCaches, ContextSnapshot } from '../request-context/context.ts';
import { sameValue, toColumn } from './field-values.ts';
import type { CheckedChildRow, CheckedInput } from './record-input.ts';
import { applyFormulas } from './record-formulas.ts';
import { presentChildRow, presentValues } from './record.presenter.ts';
import { childRowsOf, findRecord, updateRecord } from './records.repo.ts';
import { anyDb, formOfNode, type RuntimeForm } from './runtime-form.ts';

// Rollups (docs/decisions/0015) are the server's to compute, like formulas: on every save from the record as it
// will be, whatever the client sent. A rollup over another form's records is also kept right when one of those
// records changes: the save (or removal, or a business rule's write) refreshes the records that roll it up, in the
// same transaction, each under its row lock so that concurrent sources never lose each other's contribution.

type Row = Record<string, unknown>;
type Children = Record<string, Row[]>;

const SYSTEM_VIEWER = { userId: 'system', authType: UserAuthType.Administrator, unitIds: [] };
/** A chain of rollups over rollups deeper than this is refused (publish refuses cycles; this guards the data). */
const MAX_REFRESH_DEPTH = 16;

/** Published forms by code within one action, read with the system's standing (rules and rollups act for the form). */
export class FormCache {
  private readonly forms = new Map<string, Promise<RuntimeForm | null>>();
  /** With a context snapshot (and an executor outside a transaction), nodes and published forms come from the app's caches. */
  constructor(
    readonly edb: EngineExecutor,
    private readonly context?: ContextSnapshot,
  ) {}

  get(schemaCode: string): Promise<RuntimeForm | null> {
    let found = this.forms.get(schemaCode);
    if (!found) {
      // Rules and rollups change no form: within a transaction too, the forms come from the caches (while the
      // request changes none: markChanging sends every read to the tables).
      const viewer = this.context ? { ...SYSTEM_VIEWER, context: this.context, cachedInTransaction: true } : SYSTEM_VIEWER;
      found = nodeReads(this.edb, viewer)
        .findNode(schemaCode)
        .then((node) => (node ? formOfNode(this.edb, node, viewer, true).catch(() => null) : null));
      this.forms.set(schemaCode, found);
    }
    return found;
  }

  /**
   * The rollups of other forms that read `schemaCode`'s records (form_dependencies, written at publish): from the
   * request's cache while the engine's 'forms' version holds (a publish bumps it), else from the table.
   */
  rollupDependants(schemaCode: string): Promise<{ schema_code: string; item: string }[]> {
    return this.perForm('dependants', schemaCode, () => this.edb.selectFrom('form_dependencies').select(['schema_code', 'item']).where('depends_on', '=', schemaCode).where('kind', '=', 'rollup').execute());
  }

  /**
   * A read about one form kept in the request context's cache `cache` while the engine's 'forms' version holds (a
   * publish of forms or rules bumps it); read from the table when there is no context or the request changes forms.
   */
  perForm<T extends unknown[]>(cache: 'dependants' | 'rules', schemaCode: string, load: () => Promise<T>): Promise<T> {
    const context = this.context;
    if (!context || context.changing) return load();
    return (context.caches[cache] as ContextCaches[typeof cache]).get(context.engineCode, context.formsVersion, schemaCode, load) as Promise<T>;
  }

  /** Forms read already (before a transaction, from the caches): answered without reading again. */
  seed(forms: Iterable<RuntimeForm>): this {
    for (const form of forms) this.forms.set(form.node.code, Promise.resolve(form));
    return this;
  }

  async require(schemaCode: string): Promise<RuntimeForm> {
    const form = await this.get(schemaCode);
    if (!form) throw new AppError('FormNotPublished', { detail: { schemaCode } });
    return form;
  }
}

const rowValues = ({ ObjectId: _id, ...values }: Row) => values;
const idsIn = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

/** The Effective records of the rollup's source form that associate to `objectId`, as values by code. */
async function sourceRecords(forms: FormCache, spec: RollupSpec, objectId: string): Promise<Row[]> {
  const source = await forms.get(spec.sourceSchemaCode!);
  const link = source?.fields.find((f) => f.code === spec.sourceCode);
  if (!source || !link) return [];
  const wanted = new Set(rollupSourceFields(spec));
  const fields = source.fields.filter((f) => wanted.has(f.code));
  const column = sql.ref(link.code);
  const match = link.sqlType.endsWith('[]') ? sql<boolean>`${objectId} = any(${column})` : sql<boolean>`${column} = ${objectId}`;
  const rows = await anyDb(forms.edb)
    .selectFrom(source.mainTable)
    .select(fields.length ? fields.map((f) => f.code) : ['ObjectId'])
    .where('Status', '=', BizObjectStatus.Effective)
    .where(match)
    .execute();
  return rows.map((row) => presentValues(fields, row));
}

/** One rollup's value for the record as it will be. */
export async function rollupValue(forms: FormCache, spec: RollupSpec, objectId: string, values: Row, children: Children): Promise<unknown> {
  if (!spec.sourceSchemaCode) return subTableRollup(spec, values, children);
  return aggregate(spec, filterRows(spec, await sourceRecords(forms, spec, objectId)));
}

/**
 * Computes the record's rollups into the checked input (after its formulas: a sub-table rollup may read a formula
 * column), then its formulas again (a formula may read a rollup).
 */
export async function applyRollups(
  edb: EngineExecutor | FormCache,
  form: RuntimeForm,
  checked: CheckedInput,
  stored: { values?: Row; children: Children },
  objectId: string,
  now: Date,
): Promise<void> {
  const specs = rollupsOf(form.definition.controls);
  if (!specs.length) return;
  const forms = edb instanceof FormCache ? edb : new FormCache(edb);
  const rowsOf = (code: string): CheckedChildRow[] =>
    checked.children.get(code) ?? (stored.children[code] ?? []).map((row) => ({ objectId: String(row.ObjectId), values: rowValues(row) }));
  const values = { ...stored.values, ...checked.values };
  const children = Object.fromEntries(form.grids.map((grid) => [grid.code, rowsOf(grid.code).map((row) => row.values)]));
  for (const spec of specs) checked.values[spec.code] = await rollupValue(forms, spec, objectId, values, children);
  applyFormulas(form, checked, stored, now);
  // Again while a sub-table rollup still changes (a rollup over a formula column that reads a rollup): the browser
  // shows the settled figures (computeWithRollups, LiveRecord — docs/decisions/0034), so the save stores them too.
  const own = specs.filter((spec) => !spec.sourceSchemaCode);
  for (let round = 0; round < own.length; round++) {
    const settled = { ...stored.values, ...checked.values };
    const rows = Object.fromEntries(form.grids.map((grid) => [grid.code, rowsOf(grid.code).map((row) => row.values)]));
    const changed = own.flatMap((spec) => {
      const value = subTableRollup(spec, settled, rows);
      return Object.is(value, checked.values[spec.code]) ? [] : [[spec.code, value] as const];
    });
    if (!changed.length) return;
    for (const [code, value] of changed) checked.values[code] = value;
    applyFormulas(form, checked, stored, now);
  }
}

export async function childrenOfRecord(edb: EngineExecutor, form: RuntimeForm, objectId: string): Promise<Children> {
  return (await childrenOfRecords(edb, form, [objectId])).get(objectId)!;
}

/** The presented sub-table rows of several records: one query per sub-table. */
export async function childrenOfRecords(edb: EngineExecutor, form: RuntimeForm, objectIds: string[]): Promise<Map<string, Children>> {
  const out = new Map<string, Children>(objectIds.map((id) => [id, Object.fromEntries(form.grids.map((g) => [g.code, []]))]));
  for (const grid of form.grids) {
    for (const row of await childRowsOf(edb, grid, objectIds)) out.get(String(row.ParentObjectId))?.[grid.code]!.push(presentChildRow(grid, row));
  }
  return out;
}

/**
 * Recomputes a stored record's rollups and the formulas over them, under its row lock; writes the main-table values
 * that changed (not a person's edit: no data log, ModifiedTime kept) and refreshes what rolls this record up in turn.
 * Answers whether anything changed.
 */
export async function recomputeStoredRecord(forms: FormCache, form: RuntimeForm, objectId: string, depth = 0): Promise<{ found: boolean; changed: boolean; values: Row }> {
  const row = await findRecord(forms.edb, form, objectId, { forUpdate: true });
  if (!row) return { found: false, changed: false, values: {} };
  const values = presentValues(form.fields, row);
  const checked: CheckedInput = { values: {}, children: new Map() };
  await applyRollups(forms, form, checked, { values, children: await childrenOfRecord(forms.edb, form, objectId) }, objectId, new Date());
  const columns: Row = {};
  for (const field of form.fields) {
    if (field.code in checked.values && !sameValue(checked.values[field.code], values[field.code])) columns[field.code] = toColumn(field, checked.values[field.code]);
  }
  const after = { ...values, ...checked.values };
  if (!Object.keys(columns).length) return { found: true, changed: false, values: after };
  await updateRecord(forms.edb, form, objectId, columns);
  await refreshDependants(forms, form, { ...values, Status: row.Status }, { ...after, Status: row.Status }, depth + 1);
  return { found: true, changed: true, values: after };
}

/**
 * A record of `form` changed from `before` to `after` (values by code; either absent for a create or a removal):
 * the records of other forms whose rollups read it — those its association fields point at, before and after — are
 * recomputed. The rollups to look at come from form_dependencies (written at publish).
 */
export async function refreshDependants(forms: FormCache, form: RuntimeForm, before: Row | undefined, after: Row | undefined, depth = 0): Promise<void> {
  await refreshDependantsOf(forms, form, [{ before, after }], depth);
}

/** refreshDependants for a batch of records of `form` (docs/decisions/0033): one dependency read, each target once. */
export async function refreshDependantsOf(forms: FormCache, form: RuntimeForm, changes: { before: Row | undefined; after: Row | undefined }[], depth = 0): Promise<void> {
  const deps = await forms.rollupDependants(form.node.code);
  if (!deps.length) return;
  if (depth > MAX_REFRESH_DEPTH) throw new AppError('BusinessRuleTooDeep', { detail: { schemaCode: form.node.code } });
  const byForm = new Map<string, Set<string>>();
  for (const d of deps) byForm.set(d.schema_code, (byForm.get(d.schema_code) ?? new Set()).add(d.item));
  for (const [schemaCode, items] of byForm) {
    const target = await forms.get(schemaCode);
    if (!target) continue;
    const ids = new Set<string>();
    for (const spec of rollupsOf(target.definition.controls)) {
      if (!items.has(spec.code) || spec.sourceSchemaCode !== form.node.code) continue;
      for (const { before, after } of changes) for (const id of [...idsIn(before?.[spec.sourceCode]), ...idsIn(after?.[spec.sourceCode])]) ids.add(id);
    }
    // In id order, so that two transactions lock the same records in the same order.
    for (const id of [...ids].sort()) await recomputeStoredRecord(forms, target, id, depth);
  }
}

import { sql } from 'kysely';
import { errorText, type ErrorName } from '@tritium/shared';
import { controlChoices, type ControlDataType } from '@tritium/shared/controls/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { CheckedInput } from './record-input.ts';
import { byCode, type DataField, type RuntimeForm } from './runtime-form.ts';

// Values that must name something (docs/decisions/0029): a radio, drop-down or checkbox-list value one of the
// control's items, a user or department id one of the engine's. Checked after the value schemas (record-input.ts) on
// every write path — /v1 saves, the open API, import, business rules, data links, batch changes — because they all end
// in saveRecordIn or the import's fast insert. The ids of a whole save (or of a batch, see KnownReferences) are looked
// up in one query, in the engine's own schema. A value the record already holds in that field passes unchanged: a
// renamed item or a removed person does not lock a record against other edits.

type ReferenceKind = 'user' | 'department';
const REFERENCE_OF: Partial<Record<ControlDataType, ReferenceKind>> = { user: 'user', users: 'user', unit: 'department', units: 'department' };
const ERROR_OF: Record<ReferenceKind, ErrorName> = { user: 'BizUserNotFound', department: 'BizDepartmentNotFound' };

/** Ids known to exist in the engine, e.g. loaded once for a whole import task or open-API batch. */
export interface KnownReferences {
  users: ReadonlySet<string>;
  departments: ReadonlySet<string>;
}

/** What the record held before the save (absent for a new record). */
export interface StoredValues {
  values?: Record<string, unknown>;
  children?: Record<string, Record<string, unknown>[]>;
}

interface Place {
  field: DataField;
  path: string;
  items: string[];
  kept: Set<string>;
}

const listOf = (value: unknown): string[] => (value == null ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);
const NOTHING_KEPT: Set<string> = new Set();

/**
 * Whether a field's values can be refused here: a control with items or a user / department reference. The rest are
 * never placed (an import checks every value of 100,000 records: docs/decisions/0106).
 */
const refusable = (field: DataField): boolean => REFERENCE_OF[field.type.dataType] !== undefined || choicesOf(field) !== null;

/** Every value of the save that names an item or a reference, with the field it belongs to and what that field held before. */
function placesOf(form: RuntimeForm, checked: CheckedInput, before: StoredValues = {}): Place[] {
  const places: Place[] = [];
  for (const field of form.fields) {
    if (!(field.code in checked.values) || !refusable(field)) continue;
    const held = before.values?.[field.code];
    places.push({ field, path: `values.${field.code}`, items: listOf(checked.values[field.code]), kept: held == null ? NOTHING_KEPT : new Set(listOf(held)) });
  }
  for (const grid of form.grids) {
    const rows = checked.children.get(grid.code);
    if (!rows) continue;
    const old = before.children?.[grid.code] ?? [];
    for (const field of grid.fields) {
      if (!refusable(field)) continue;
      const kept = new Set(old.flatMap((row) => listOf(row[field.code])));
      rows.forEach((row, i) => places.push({ field, path: `children.${grid.code}.${i}.${field.code}`, items: listOf(row.values[field.code]), kept }));
    }
  }
  return places.filter((place) => place.items.some((item) => !place.kept.has(item)));
}

/** The user and department ids the places name that are not kept values. */
function referencedIds(places: readonly Place[]): { users: Set<string>; departments: Set<string> } {
  const out = { users: new Set<string>(), departments: new Set<string>() };
  for (const place of places) {
    const kind = REFERENCE_OF[place.field.type.dataType];
    if (!kind) continue;
    for (const id of place.items) if (!place.kept.has(id)) (kind === 'user' ? out.users : out.departments).add(id);
  }
  return out;
}

const choicesOfField = new WeakMap<DataField, readonly string[] | null>();
/** A field's items, read once per field object (a batch checks every record's value against them). */
function choicesOf(field: DataField): readonly string[] | null {
  let choices = choicesOfField.get(field);
  if (choices === undefined) choicesOfField.set(field, (choices = controlChoices(field.type, field.options)));
  return choices;
}

/** The user and department ids written in raw save bodies (before their checks), to look a batch's up at once. */
export function inputReferenceIds(form: RuntimeForm, bodies: { values?: Record<string, unknown>; children?: Record<string, Record<string, unknown>[]> }[]): { users: Set<string>; departments: Set<string> } {
  const out = { users: new Set<string>(), departments: new Set<string>() };
  const add = (field: DataField | undefined, value: unknown) => {
    const kind = field && REFERENCE_OF[field.type.dataType];
    if (!kind) return;
    for (const id of listOf(value)) if (id) (kind === 'user' ? out.users : out.departments).add(id);
  };
  const fields = byCode(form.fields);
  for (const body of bodies) {
    for (const [code, value] of Object.entries(body.values ?? {})) add(fields.get(code), value);
    for (const grid of form.grids) {
      const gridFields = byCode(grid.fields);
      for (const row of body.children?.[grid.code] ?? []) for (const [code, value] of Object.entries(row)) add(gridFields.get(code), value);
    }
  }
  return out;
}

/** Which of the ids exist in the engine: one query for both kinds. */
export async function existingReferences(edb: EngineExecutor, ids: { users: Set<string>; departments: Set<string> }): Promise<KnownReferences> {
  const users = [...ids.users];
  const departments = [...ids.departments];
  const found: KnownReferences = { users: new Set(), departments: new Set() };
  if (!users.length && !departments.length) return found;
  const userQuery = edb.selectFrom('org_users').select(['id', sql<string>`'user'`.as('kind')]).where('id', 'in', users.length ? users : ['']);
  const departmentQuery = edb
    .selectFrom('org_units')
    .select(['id', sql<string>`'department'`.as('kind')])
    .where('id', 'in', departments.length ? departments : [''])
    .where('unit_type', 'in', ['Company', 'OrganizationUnit']);
  const rows = await userQuery.unionAll(departmentQuery).execute();
  for (const row of rows) (row.kind === 'user' ? (found.users as Set<string>) : (found.departments as Set<string>)).add(row.id);
  return found;
}

interface Problem {
  error: ErrorName;
  path: string;
  field: DataField;
  value: string;
}

const displayNameOf = (field: DataField) => String(field.options.displayName ?? field.code);

/**
 * Refuses a save whose new values are not among their control's items or name users or departments the engine does
 * not have: the catalogue error of the first problem (its message names the field), detail.issues listing every one.
 * `known`: ids already known to exist (a batch's one lookup); the others are looked up here in one query.
 */
export async function checkFieldValues(edb: EngineExecutor, form: RuntimeForm, checked: CheckedInput, before?: StoredValues, known?: KnownReferences): Promise<void> {
  const problems: Problem[] = [];
  const places = placesOf(form, checked, before);
  for (const place of places) {
    const choices = choicesOf(place.field);
    if (!choices) continue;
    const bad = place.items.find((item) => !place.kept.has(item) && !choices.includes(item));
    if (bad !== undefined) problems.push({ error: 'BizValueNotAnOption', path: place.path, field: place.field, value: bad });
  }
  const wanted = referencedIds(places);
  // Only the save's own ids are walked: `known` may hold every user of the engine.
  if (known) {
    for (const id of wanted.users) if (known.users.has(id)) wanted.users.delete(id);
    for (const id of wanted.departments) if (known.departments.has(id)) wanted.departments.delete(id);
  }
  const found = await existingReferences(edb, wanted);
  for (const place of places) {
    const kind = REFERENCE_OF[place.field.type.dataType];
    if (!kind) continue;
    const asked = kind === 'user' ? wanted.users : wanted.departments;
    const exists = kind === 'user' ? found.users : found.departments;
    const missing = place.items.filter((id) => asked.has(id) && !exists.has(id));
    if (missing.length) problems.push({ error: ERROR_OF[kind], path: place.path, field: place.field, value: missing.join(', ') });
  }
  if (problems.length) throw fieldValueError(problems);
}

function fieldValueError(problems: Problem[]): AppError {
  const detailOf = (p: Problem) => ({ field: p.field.code, displayName: displayNameOf(p.field), value: p.value });
  const issues = problems.map((p) => ({ path: p.path, code: p.error, ...detailOf(p), message: errorText(p.error, 'zh-CN', detailOf(p)) }));
  const first = problems[0]!;
  return new AppError(first.error, { message: issues[0]!.message, detail: { ...detailOf(first), issues } });
}

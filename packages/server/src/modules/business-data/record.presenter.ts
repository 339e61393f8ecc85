import type { contracts } from '@tritium/shared';
import { fromColumn } from './field-values.ts';
import type { RecordRow } from './records.repo.ts';
import type { DataField, GridField, RuntimeForm } from './runtime-form.ts';
import { isHidden } from '../permission/form-rights.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// Rows of the dynamic tables → JSON (docs/decisions/0007): values under their control codes in the registry's
// value formats, timestamps as ISO strings.

const iso = (v: unknown): string | null => (v == null ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const str = (v: unknown): string | null => (v == null ? null : String(v));

export function presentSystem(row: RecordRow): contracts.LoadDataResult['system'] {
  return {
    ObjectId: str(row.ObjectId),
    Name: String(row.Name ?? ''),
    Status: Number(row.Status ?? 0),
    CreatedBy: str(row.CreatedBy),
    ModifiedBy: str(row.ModifiedBy),
    OwnerId: str(row.OwnerId),
    OwnerDeptId: str(row.OwnerDeptId),
    CreatedTime: iso(row.CreatedTime),
    ModifiedTime: iso(row.ModifiedTime),
    SeqNo: str(row.SeqNo),
    WorkflowInstanceId: str(row.WorkflowInstanceId),
  };
}

export function presentValues(fields: readonly DataField[], row: RecordRow): Record<string, unknown> {
  return valuesInto({}, fields, row);
}

/** Adds the fields' values to `into` (one object a record, no entry arrays: a list presents thousands of rows). */
function valuesInto<T extends Record<string, unknown>>(into: T, fields: readonly DataField[], row: RecordRow): T {
  for (const f of fields) {
    const value = fromColumn(f, row[f.code]);
    // A code may be spelled "__proto__" (letters and underscores): an own property, as Object.fromEntries made it.
    if (f.code === '__proto__') Object.defineProperty(into, f.code, { value, enumerable: true, writable: true, configurable: true });
    else (into as Record<string, unknown>)[f.code] = value;
  }
  return into;
}

export function presentChildRow(grid: GridField, row: RecordRow): Record<string, unknown> {
  return { ObjectId: String(row.ObjectId), ...presentValues(grid.fields, row) };
}

/** The fields the caller may see: their permission groups' hidden fields are left out (docs/decisions/0037). */
export const visibleFields = (form: RuntimeForm): DataField[] => form.fields.filter((f) => !isHidden(form.rights, f.code));

/** The sub-tables the caller may see, each with only its visible columns. */
export function visibleGrids(form: RuntimeForm): GridField[] {
  return form.grids
    .filter((g) => !isHidden(form.rights, g.code))
    .map((g) => ({ ...g, fields: g.fields.filter((f) => !isHidden(form.rights, `${g.code}.${f.code}`)) }));
}

/** A record of a list: system fields and the values the caller may see, side by side. */
export function presentRecord(form: RuntimeForm, row: RecordRow): Record<string, unknown> {
  return valuesInto(presentSystem(row) as Record<string, unknown>, form.rights.fields.size ? visibleFields(form) : form.fields, row);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_LOOKUP_MAX = 1000;

/** The names of the users and departments whose ids the records hold (up to 1,000 ids), in two reads. */
export async function unitNamesIn(edb: EngineExecutor, records: readonly unknown[]): Promise<(id: string) => string | undefined> {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (found.size >= NAME_LOOKUP_MAX) return;
    if (typeof value === 'string' && UUID.test(value)) found.add(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  records.forEach(visit);
  const ids = [...found];
  const names = new Map<string, string>();
  if (ids.length) {
    for (const row of await edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', ids).execute()) names.set(row.id, row.name);
    for (const row of await edb.selectFrom('org_units').select(['id', 'name']).where('id', 'in', ids).execute()) names.set(row.id, row.name);
  }
  return (id) => names.get(id);
}

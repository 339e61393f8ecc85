import { controlStorage, type ControlDataType } from '@tritium/shared/controls/index';
import type { DataField, GridField, RuntimeForm } from '../business-data/runtime-form.ts';
import { isHidden } from '../permission/form-rights.ts';
import { isUuidIdColumn } from '../../db/uuid-ids.ts';

// The columns a filter, a sort or a statistic may name (docs/decisions/0013): a main-table control column by its
// code, a system field by its name, or a sub-table column as `<gridCode>.<code>`. Each carries the registry's data
// type (what operators apply) and its SQL type (how to compare).

export interface QueryColumn {
  code: string;
  dataType: ControlDataType;
  sqlType: string;
  /** Set for a sub-table column: the filter becomes EXISTS on the child table. */
  grid?: GridField;
}

/** System columns (docs/decisions/0007) and their data types: who fields are users, OwnerDeptId a department. */
const SYSTEM_FIELDS: Record<string, Pick<QueryColumn, 'dataType' | 'sqlType'>> = {
  ObjectId: { dataType: 'reference', sqlType: 'uuid' },
  Name: { dataType: 'string', sqlType: 'text' },
  Status: { dataType: 'int', sqlType: 'integer' },
  CreatedBy: { dataType: 'user', sqlType: 'text' },
  ModifiedBy: { dataType: 'user', sqlType: 'text' },
  OwnerId: { dataType: 'user', sqlType: 'text' },
  OwnerDeptId: { dataType: 'unit', sqlType: 'text' },
  CreatedTime: { dataType: 'datetime', sqlType: 'timestamptz' },
  ModifiedTime: { dataType: 'datetime', sqlType: 'timestamptz' },
  SeqNo: { dataType: 'string', sqlType: 'text' },
  WorkflowInstanceId: { dataType: 'reference', sqlType: 'text' },
};

/**
 * The main table's columns a record is presented from, on `alias`: the system columns and the form's fields — not
 * `alias.*`, which would read the lowered twins too (decision 0103).
 */
export const recordColumns = (form: RuntimeForm, alias: string): string[] => [...Object.keys(SYSTEM_FIELDS), ...form.fields.map((f) => f.code)].map((c) => `${alias}.${c}`);

const dataTypeOf = (f: { type: Parameters<typeof controlStorage>[0]; options: unknown }): ControlDataType => controlStorage(f.type, f.options).dataType;

const fieldColumn = (field: DataField): QueryColumn => ({ code: field.code, dataType: dataTypeOf(field), sqlType: field.sqlType });

/**
 * A main-table column, or undefined. A field hidden from the caller (their permission groups, docs/decisions/0037)
 * is no column for them: it cannot be filtered, sorted or counted on.
 */
export function mainColumn(form: RuntimeForm, code: string): QueryColumn | undefined {
  const field = form.fields.find((f) => f.code === code);
  if (field) return isHidden(form.rights, code) ? undefined : fieldColumn(field);
  const system = Object.hasOwn(SYSTEM_FIELDS, code) ? SYSTEM_FIELDS[code] : undefined;
  if (!system) return undefined;
  // The people, department and flow ids are uuid in tables made (or converted) since decision 0128, text before.
  return form.uuidIds && isUuidIdColumn(code) ? { code, ...system, sqlType: 'uuid' } : { code, ...system };
}

/** A main-table column or a sub-table column (`grid.code`), or undefined (hidden ones too). */
export function resolveColumn(form: RuntimeForm, name: string): QueryColumn | undefined {
  const dot = name.indexOf('.');
  if (dot < 0) return mainColumn(form, name);
  const grid = form.grids.find((g) => g.code === name.slice(0, dot));
  const field = grid?.fields.find((f) => f.code === name.slice(dot + 1));
  if (!grid || !field || isHidden(form.rights, grid.code) || isHidden(form.rights, name)) return undefined;
  return { ...fieldColumn(field), grid };
}

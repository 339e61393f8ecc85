import { sql, type RawBuilder } from 'kysely';
import { controlFromInput, valueRuleProblem } from '@tritium/shared/controls/index';
import type { DataField } from './runtime-form.ts';

// Values of data fields (docs/decisions/0007 "Value formats"): checked by the registry's value schema of each control
// type, written in the column type the registry chose, read back in the same JSON format the client sent.

export interface Issue {
  path: string;
  message: string;
}

/** Empty in the sense of "required": null, '', or an empty list. */
export const isEmpty = (value: unknown): boolean => value == null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * Checks one value against its control type; answers the value to store ('' kept for text, other empties as null) or
 * pushes issues under `path`. A value is stored as sent or refused, never adjusted (a number's decimal places included).
 */
export function checkValue(field: DataField, value: unknown, path: string, issues: Issue[]): unknown {
  if (value === undefined || value === null) return null;
  if (value === '' && field.sqlType !== 'text' && !field.sqlType.startsWith('varchar')) return null;
  // Every entry point's formats (e.g. "2023-10-18" for a date) through the control type's one converter (decision 0029).
  const parsed = field.type.value?.safeParse(controlFromInput(field.type, value));
  if (!parsed || !parsed.success) {
    issues.push({ path, message: parsed?.error.issues[0]?.message ?? '值无效' });
    return undefined;
  }
  const out = parsed.data;
  const columnProblem = columnMismatch(field.sqlType, out);
  if (columnProblem) {
    issues.push({ path, message: columnProblem });
    return undefined;
  }
  const problem = valueRuleProblem(field.type, field.options, out);
  if (problem) issues.push({ path, message: problem });
  return out;
}

/**
 * Types whose storage follows an option (formula, rollup: bindType) accept values of every bind type; the column
 * decides what fits, so a value never reaches the database in a shape its column refuses.
 */
function columnMismatch(sqlType: DataField['sqlType'], value: unknown): string | null {
  if ((sqlType === 'numeric' || sqlType === 'integer') && (typeof value !== 'number' || !Number.isFinite(value))) return '须为数字';
  if (sqlType === 'integer' && !Number.isInteger(value)) return '须为整数';
  if (sqlType === 'boolean' && typeof value !== 'boolean') return '须为是或否';
  if (sqlType === 'timestamptz' && (typeof value !== 'string' || Number.isNaN(Date.parse(value)))) return '须为日期时间';
  if ((sqlType === 'text' || sqlType.startsWith('varchar')) && typeof value !== 'string') return '须为文本';
  if (sqlType === 'text[]' && (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))) return '须为文本列表';
  return null;
}

/** A value as a query parameter of its column type. */
export function toColumn(field: Pick<DataField, 'sqlType'>, value: unknown): unknown | RawBuilder<unknown> {
  if (value == null) return null;
  if (field.sqlType === 'jsonb') return JSON.stringify(value);
  // An array parameter is typed differently by the pg and PGlite drivers; a JSON text converts the same on both.
  if (field.sqlType === 'text[]') return sql`array(select jsonb_array_elements_text(${JSON.stringify(value)}::jsonb))`;
  return value;
}

/** A column value as the client's JSON value. */
export function fromColumn(field: Pick<DataField, 'sqlType'>, value: unknown): unknown {
  if (value == null) return null;
  if (value instanceof Date) return value.toISOString();
  if (field.sqlType === 'numeric' || field.sqlType === 'integer') return typeof value === 'string' ? Number(value) : value;
  if (field.sqlType === 'jsonb' && typeof value === 'string') {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/** The default value of a control on a new record (its DefaultValue option). */
export function defaultValueOf(field: DataField, who: { userId: string; deptId: string | null }, now: Date): unknown {
  const d = field.options.defaultValue;
  if (d === undefined || d === null || d === 'none') return null;
  const many = field.sqlType === 'text[]';
  if (d === 'now') return now.toISOString();
  if (d === 'currentUser') return many ? [who.userId] : who.userId;
  if (d === 'currentDepartment' || d === 'currentDept') return who.deptId ? (many ? [who.deptId] : who.deptId) : null;
  return field.type.value?.safeParse(d).success ? d : null;
}

/** Same value? (JSON comparison of the client formats; every empty value — null, '', [] — is the same empty.) */
export function sameValue(a: unknown, b: unknown): boolean {
  const x = isEmpty(a) ? null : a;
  const y = isEmpty(b) ? null : b;
  // The common cases without stringifying (a save's data log compares every field, an import's every value of every
  // new record with null): the same primitive, or nothing against a text or yes/no — which JSON never writes as "null".
  if (x === y) return true;
  const tx = typeof x;
  const ty = typeof y;
  if ((x === null || tx === 'string' || tx === 'boolean') && (y === null || ty === 'string' || ty === 'boolean')) return false;
  return JSON.stringify(x) === JSON.stringify(y);
}

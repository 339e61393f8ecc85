import { controlFromInput } from '@tritium/shared/controls/index';
import { byCode, type DataField, type GridField, type RuntimeForm } from '../business-data/runtime-form.ts';

// Values in the open API's own formats (h3yun-facts §1.4, §2.8; docs/decisions/0021) ⇄ the runtime's formats
// (docs/decisions/0007). In: multi-selects as `a;b;c` or arrays, dates as `yyyy-MM-dd[ HH:mm[:ss]]` in Asia/Shanghai,
// numbers and booleans also as strings, address / map as JSON strings, sub-tables as row arrays under the grid code.
// Out: dates `yyyy-MM-dd HH:mm:ss` (Asia/Shanghai), checkbox lists `a;b`, address / map as JSON strings.

export const SYSTEM_FIELDS = ['ObjectId', 'Name', 'Status', 'CreatedBy', 'ModifiedBy', 'OwnerId', 'OwnerDeptId', 'CreatedTime', 'ModifiedTime', 'SeqNo', 'WorkflowInstanceId'] as const;
const SYSTEM = new Set<string>(SYSTEM_FIELDS);
const FILE_TYPES = new Set(['attachment', 'photo', 'handSign', 'eSign']);
/** Multi-value controls the product writes and reads as one `;`-joined string. */
const JOINED_TYPES = new Set(['checkboxList', 'batchScan']);

export interface Issue {
  path: string;
  message: string;
}

const LOCAL = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(:\d{2})?)?$/;
/**
 * `yyyy-MM-dd[ HH:mm[:ss]]` (China time) → ISO-8601 with +08:00; anything else unchanged. With `keepDays`, a date
 * alone stays as it is (the query engine reads it as that whole day).
 */
export function localToIso(value: unknown, keepDays = false): unknown {
  if (typeof value !== 'string') return value;
  const m = LOCAL.exec(value.trim());
  if (!m || (keepDays && !m[2])) return value;
  return `${m[1]}T${m[2] ?? '00:00'}${m[3] ?? ':00'}+08:00`;
}

/** An ISO moment → `yyyy-MM-dd HH:mm:ss` in Asia/Shanghai (no daylight saving since 1991: a fixed +08:00). */
export function isoToLocal(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return value;
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function parseJson(value: unknown, path: string, issues: Issue[]): unknown {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return null;
  try {
    return JSON.parse(value);
  } catch {
    issues.push({ path, message: '须为 JSON 字符串' });
    return undefined;
  }
}

function fieldIn(field: DataField, value: unknown, path: string, issues: Issue[]): unknown {
  if (value === null || value === undefined) return null;
  const key = field.type.key;
  if (FILE_TYPES.has(key)) {
    issues.push({ path, message: '附件、图片和签名不能通过 BizObject 设置' });
    return undefined;
  }
  if (key === 'areaSelect') {
    const v = parseJson(value, path, issues) as Record<string, unknown> | null | undefined;
    if (!v || typeof v !== 'object') return v;
    if (!v.adcode) return null;
    return { adcode: v.adcode, adname: v.adname, detail: v.Detail ?? v.detail ?? '' };
  }
  if (key === 'map') {
    const v = parseJson(value, path, issues) as Record<string, unknown> | null | undefined;
    if (!v || typeof v !== 'object') return v;
    return { address: v.Address ?? v.address, point: v.Point ?? v.point };
  }
  // Dates, numbers, yes/no and checkbox lists: the control type's one input converter, as /v1 and import (decision 0029).
  if (field.type.fromInput) return controlFromInput(field.type, value);
  switch (field.sqlType) {
    case 'text[]':
      if (typeof value === 'string') return value.split(';').map((s) => s.trim()).filter(Boolean);
      return value;
    case 'timestamptz':
      return value === '' ? null : localToIso(value);
    case 'numeric':
      return typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value === '' ? null : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    default:
      return value;
  }
}

function rowsIn(grid: GridField, value: unknown, path: string, issues: Issue[]): Record<string, unknown>[] | undefined {
  const parsed = parseJson(value, path, issues);
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || parsed.some((r) => !r || typeof r !== 'object' || Array.isArray(r))) {
    if (parsed !== undefined) issues.push({ path, message: '子表须为对象数组' });
    return undefined;
  }
  const fields = byCode(grid.fields);
  return parsed.map((row: Record<string, unknown>, i) => {
    const out: Record<string, unknown> = {};
    for (const [code, v] of Object.entries(row)) {
      const field = fields.get(code);
      // Codes the grid does not have are left for the record checks to name.
      out[code] = field ? fieldIn(field, v, `${path}.${i}.${code}`, issues) : v;
    }
    return out;
  });
}

/**
 * A BizObject (already parsed) → the runtime's `values` and `children`. System fields are ignored (the platform sets
 * them); unknown codes pass through for record.service to refuse by name.
 */
export function bizObjectIn(form: RuntimeForm, bizObject: Record<string, unknown>, path: string, issues: Issue[]) {
  const fields = byCode(form.fields);
  const grids = byCode(form.grids);
  const values: Record<string, unknown> = {};
  const children: Record<string, Record<string, unknown>[]> = {};
  for (const code of Object.keys(bizObject)) {
    const value = bizObject[code];
    if (SYSTEM.has(code)) continue;
    const grid = grids.get(code);
    if (grid) {
      const rows = rowsIn(grid, value, `${path}.${code}`, issues);
      if (rows) children[code] = rows;
      continue;
    }
    const field = fields.get(code);
    values[code] = field ? fieldIn(field, value, `${path}.${code}`, issues) : value;
  }
  return { values, children };
}

function fieldOut(field: DataField, value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  const key = field.type.key;
  if (key === 'areaSelect') {
    const v = value as { adcode: string; adname: string; detail?: string };
    return JSON.stringify({ adcode: v.adcode, adname: v.adname, Detail: v.detail ?? '' });
  }
  if (key === 'map') {
    const v = value as { address: string; point: unknown };
    return JSON.stringify({ Address: v.address, Point: v.point });
  }
  if (JOINED_TYPES.has(key) && Array.isArray(value)) return value.join(';');
  if (field.sqlType === 'timestamptz') return isoToLocal(value);
  return value;
}

/** A presented record (system fields and values side by side) → the product's BizObject. */
export function bizObjectOut(form: RuntimeForm, record: Record<string, unknown>, children?: Record<string, Record<string, unknown>[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const code of SYSTEM_FIELDS) out[code] = code === 'CreatedTime' || code === 'ModifiedTime' ? isoToLocal(record[code]) : (record[code] ?? null);
  for (const field of form.fields) out[field.code] = fieldOut(field, record[field.code]);
  if (children) {
    for (const grid of form.grids) {
      out[grid.code] = (children[grid.code] ?? []).map((row) => ({
        ObjectId: row.ObjectId,
        ...Object.fromEntries(grid.fields.map((f) => [f.code, fieldOut(f, row[f.code])])),
      }));
    }
  }
  return out;
}

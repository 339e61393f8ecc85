import { formatDateTime, joinTexts } from '@tritium/shared/controls/index';
import type { DataField } from '../business-data/runtime-form.ts';

// Cells ⇄ values (docs/decisions/0020). A cell arrives as text, number, boolean or Date (from .xlsx or .csv) and
// becomes the value a form save takes; the save's own check (record-input.ts) then decides whether it is valid.
// Only what a spreadsheet cannot say the way a save does is converted here: people and departments by name or
// mobile, options by their text, dates in the common Chinese formats, yes/no, lists split on ';'.

export type Cell = string | number | boolean | Date | null;

/** Who and what names resolve to, loaded once per task. */
export interface Lookups {
  /** name or mobile (or id) → user ids */
  users: Map<string, string[]>;
  /** department name (or id) → ids */
  departments: Map<string, string[]>;
  userNames: Map<string, string>;
  departmentNames: Map<string, string>;
}

export type Converted = { value: unknown } | { error: string };

const ZONE_OFFSET = '+08:00';
const pad = (n: string | number, l = 2) => String(n).padStart(l, '0');
const DATE_TEXT = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*(?:[-/.月]\s*(\d{1,2})\s*[日号]?)?\s*(?:[T\s]\s*(\d{1,2})\s*[:：时]\s*(\d{1,2})\s*(?:[:：分]\s*(\d{1,2})\s*秒?)?\s*)?$/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;

/** Text of a cell, trimmed ('' for empty). */
export function cellText(cell: Cell): string {
  if (cell == null) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
}

/**
 * A date cell or text in Asia/Shanghai wall time: 2024-01-02, 2024/1/2, 2024.1.2, 2024年1月2日, 20240102, each with an
 * optional time (10:30, 10:30:15, 10时30分); ISO text with a zone is taken as it is. An .xlsx date cell holds the
 * wall time as if it were UTC (the file has no zone), so it is read as Shanghai time too.
 */
export function parseChineseDate(cell: Cell): string | null {
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return null;
    const wall = cell.toISOString().slice(0, 19);
    return new Date(`${wall}${ZONE_OFFSET}`).toISOString();
  }
  const text = cellText(cell);
  if (!text) return null;
  if (/[zZ]$|[+-]\d{2}:?\d{2}$/.test(text) && !Number.isNaN(Date.parse(text))) return new Date(text).toISOString();
  const m = DATE_TEXT.exec(text) ?? (COMPACT_DATE.exec(text) ? [text, ...COMPACT_DATE.exec(text)!.slice(1)] : null);
  if (!m) return null;
  const [, y, mo, d = '1', h = '0', mi = '0', s = '0'] = m as unknown as string[];
  const month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const iso = `${y}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${ZONE_OFFSET}`;
  const at = new Date(iso);
  // 2024-02-31 rolls over in Date: refuse it.
  if (Number.isNaN(at.getTime()) || formatDateTime(at.toISOString(), 'yyyy-mm-dd') !== `${y}-${pad(month)}-${pad(day)}`) return null;
  return at.toISOString();
}

const YES = new Set(['是', 'true', '1', 'yes', 'y', '√', '✓', '对']);
const NO = new Set(['否', 'false', '0', 'no', 'n', '×', '✗', '错']);
const splitList = (text: string): string[] => text.split(/[;；\n]/).map((s) => s.trim()).filter(Boolean);

function resolveNames(text: string, map: Map<string, string[]>, what: string): Converted {
  const ids: string[] = [];
  for (const token of splitList(text)) {
    const found = map.get(token);
    if (!found?.length) return { error: `找不到${what}“${token}”` };
    if (found.length > 1) return { error: `${what}“${token}”有重名，请改用${what === '人员' ? '手机号' : '编号'}` };
    ids.push(found[0]!);
  }
  return { value: ids };
}

/** A cell as the value of `field` (undefined-free); `{error}` says why it cannot be one. */
export function cellToValue(field: DataField, cell: Cell, lookups: Lookups): Converted {
  const text = cellText(cell);
  if (cell == null || text === '') return { value: null };
  const items = Array.isArray(field.options.defaultItems) ? (field.options.defaultItems as string[]) : null;
  const key = field.type.key;
  switch (field.type.dataType) {
    case 'decimal':
    case 'int': {
      const n = typeof cell === 'number' ? cell : Number(text.replace(/[,，\s]/g, ''));
      return Number.isFinite(n) ? { value: n } : { error: '须为数字' };
    }
    case 'datetime': {
      const iso = parseChineseDate(cell);
      return iso ? { value: iso } : { error: '日期格式无法识别（如 2024-01-31、2024/1/31、2024年1月31日 10:30）' };
    }
    case 'bool': {
      const t = typeof cell === 'boolean' ? (cell ? 'true' : 'false') : text.toLowerCase();
      if (YES.has(t)) return { value: true };
      if (NO.has(t)) return { value: false };
      return { error: '须为“是”或“否”' };
    }
    case 'strings': {
      const list = splitList(text);
      if (items && key === 'checkboxList') {
        const bad = list.find((x) => !items.includes(x));
        if (bad) return { error: `“${bad}”不是可选的选项` };
      }
      return { value: list };
    }
    case 'user':
    case 'users': {
      const r = resolveNames(text, lookups.users, '人员');
      if ('error' in r) return r;
      const ids = r.value as string[];
      if (field.type.dataType === 'user' && ids.length > 1) return { error: '只能填写一个人员' };
      return { value: field.type.dataType === 'user' ? ids[0] : ids };
    }
    case 'unit':
    case 'units': {
      const r = resolveNames(text, lookups.departments, '部门');
      if ('error' in r) return r;
      const ids = r.value as string[];
      if (field.type.dataType === 'unit' && ids.length > 1) return { error: '只能填写一个部门' };
      return { value: field.type.dataType === 'unit' ? ids[0] : ids };
    }
    case 'references':
      return { value: splitList(text) };
    case 'address':
    case 'location':
    case 'json':
    case 'file':
    case 'files':
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { error: '须为 JSON 文本（导出文件中的写法）' };
      }
    default: {
      if (items && (key === 'radioList' || key === 'dropDown') && !field.options.association && !items.includes(text)) return { error: `“${text}”不是可选的选项` };
      return { value: typeof cell === 'number' && field.sqlType !== 'numeric' ? String(cell) : text };
    }
  }
}

export interface CellLink {
  text: string;
  hyperlink: string;
}

/** A value as an export cell: names for people and departments, 是/否, dates in Shanghai time, lists joined by ';'. */
export function valueToCell(field: DataField, value: unknown, lookups: Pick<Lookups, 'userNames' | 'departmentNames'>, fileLink?: (fileId: string) => string): Cell | CellLink {
  if (value == null || (Array.isArray(value) && value.length === 0)) return null;
  switch (field.type.dataType) {
    case 'decimal':
    case 'int':
      return typeof value === 'number' ? value : Number(value);
    case 'datetime':
      return formatDateTime(String(value), 'yyyy-mm-dd hh:mm:ss');
    case 'bool':
      return value ? '是' : '否';
    case 'user':
    case 'users':
      return joinTexts(([] as string[]).concat(value as string).map((id) => lookups.userNames.get(id) ?? id));
    case 'unit':
    case 'units':
      return joinTexts(([] as string[]).concat(value as string).map((id) => lookups.departmentNames.get(id) ?? id));
    case 'strings':
    case 'references':
      return joinTexts(value as string[]);
    case 'file':
    case 'files': {
      const files = ([] as { id: string; name: string }[]).concat(value as { id: string; name: string });
      if (!fileLink) return files.map((f) => f.name).join('; ');
      if (files.length === 1) return { text: files[0]!.name, hyperlink: fileLink(files[0]!.id) };
      return files.map((f) => `${f.name} ${fileLink(f.id)}`).join('\n');
    }
    case 'address':
    case 'location':
    case 'json':
      return JSON.stringify(value);
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

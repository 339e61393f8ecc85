import { controlChoices, controlFromInput, controlValueProblem, formatDateTime, joinTexts, parseBooleanInput, parseDateTimeInput, parseNumberInput } from '@tritium/shared/controls/index';
import { findBadInput } from '@tritium/shared/validation/unstorable-text';
import { validationMessage } from '@tritium/shared/validation/messages';
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

/** Text of a cell, trimmed ('' for empty). */
export function cellText(cell: Cell): string {
  if (cell == null) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
}

/**
 * A cell as the import preview shows it: a date cell as 2024-09-10, or 2024-09-10 14:30 (14:30:15) with a time of day.
 * An .xlsx date cell holds its wall time as if it were UTC, so the time is read in UTC.
 */
export function previewText(cell: Cell): string {
  if (!(cell instanceof Date)) return cellText(cell);
  if (Number.isNaN(cell.getTime())) return '';
  const [day, time] = cell.toISOString().slice(0, 19).split('T') as [string, string];
  if (time === '00:00:00') return day;
  return `${day} ${time.endsWith(':00') ? time.slice(0, 5) : time}`;
}

/**
 * A date cell or text as the date control reads every input (shared controlFromInput: ISO, 2024-01-02, 2024/1/2,
 * 2024年1月2日, 20240102, each with an optional time, in China time). An .xlsx date cell holds the wall time as if it
 * were UTC (the file has no zone), so its wall time is read as text.
 */
function dateInput(cell: Cell): unknown {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString().slice(0, 19).replace('T', ' ');
  return cellText(cell);
}

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

/** What a cell says, as the input a control type's converter reads (list items are text even when numeric). */
function registryInput(field: DataField, cell: Cell): unknown {
  if (field.type.dataType === 'datetime') return dateInput(cell);
  if (typeof cell === 'boolean' || typeof cell === 'number') return field.type.dataType === 'strings' ? String(cell) : cell;
  return cellText(cell);
}

/** A cell as the value of `field` (undefined-free); `{error}` says why it cannot be one. */
export function cellToValue(field: DataField, cell: Cell, lookups: Lookups): Converted {
  const converted = convertCell(field, cell, lookups);
  // The save checks the items again (value-references.ts); asking here too reports every bad cell of a row at once.
  const choices = 'value' in converted ? controlChoices(field.type, field.options) : null;
  if (!choices || !('value' in converted) || converted.value == null) return converted;
  const bad = ([] as unknown[]).concat(converted.value).find((item) => !choices.includes(String(item)));
  return bad === undefined ? converted : { error: `“${String(bad)}”不是可选的选项` };
}

function convertCell(field: DataField, cell: Cell, lookups: Lookups): Converted {
  const text = cellText(cell);
  if (cell == null || text === '') return { value: null };
  // Text the database cannot store (U+0000, an unpaired surrogate) is a fault of this cell, not of the server.
  const bad = findBadInput(text, { maxDepth: 64, readJsonStrings: true });
  if (bad) return { error: validationMessage(bad.reason, { max: 64 }) };
  // Types with an input converter read a cell exactly as a save or the open API reads the same text (decision 0029);
  // options, people and departments are then checked by the save itself, the same for every entry point.
  if (field.type.fromInput) {
    // The value's own rules too (a number's decimal places, ranges): a bad cell is named with the others of its row.
    const value = controlFromInput(field.type, registryInput(field, cell));
    const problem = controlValueProblem(field.type, field.options, value);
    return problem ? { error: problem } : { value };
  }
  switch (field.type.dataType) {
    case 'decimal':
    case 'int': {
      const n = parseNumberInput(typeof cell === 'number' ? cell : text);
      return typeof n === 'number' ? { value: n } : { error: '须为数字' };
    }
    case 'datetime': {
      const iso = parseDateTimeInput(dateInput(cell));
      return iso ? { value: iso } : { error: '日期格式无法识别（如 2024-01-31、2024/1/31、2024年1月31日 10:30）' };
    }
    case 'bool': {
      const value = parseBooleanInput(typeof cell === 'boolean' ? cell : text);
      return typeof value === 'boolean' ? { value } : { error: '须为“是”或“否”' };
    }
    case 'strings':
      return { value: splitList(text) };
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

/**
 * What each catalogue function does. Functions @formulajs/formulajs has are wrapped: arguments are converted by the
 * null rules first, its error values (#DIV/0!, #NUM!, #VALUE!) become empty. The rest are the product's own.
 */
import * as formulajs from '@formulajs/formulajs';
import {
  addMonths, civilOf, DAY_MS, dateDif, formatDate, FormulaDate, fromCivil, startOfDay, weekNumber,
} from './dates.ts';
import { upperMoney } from './money.ts';
import { flatten, isEmpty, toBool, toDate, toNumber, toText, type FormulaValue } from './values.ts';

/** What a function sees of the evaluation besides its arguments. */
export interface CallEnv {
  now(): FormulaDate;
  random(): number;
  newGuid(): string;
  unitName(id: string): string | undefined;
  /** Stops with an error about argument `index` (or the whole call). */
  fail(message: string, index?: number): never;
}

export type EagerImpl = (args: FormulaValue[], env: CallEnv) => FormulaValue;
/** IF and CASE evaluate only the arguments they need. */
export type LazyImpl = { lazy: true; call(args: (() => FormulaValue)[], env: CallEnv): FormulaValue };

/** formulajs answers errors as Error values; ours are empty. */
function fj(result: unknown): FormulaValue {
  if (result instanceof Error || result === undefined) return null;
  if (typeof result === 'number' && !Number.isFinite(result)) return null;
  return result as FormulaValue;
}

/** A single number argument; a list here is a mistake in the formula (use SUM etc.). */
function num(args: FormulaValue[], index: number, env: CallEnv, fallback?: number): number {
  const value = args[index];
  if (value === undefined && fallback !== undefined) return fallback;
  if (Array.isArray(value)) env.fail('这里需要一个数值，子表字段请放在 SUM 等聚合函数中', index);
  return toNumber(value ?? null);
}
const text = (args: FormulaValue[], index: number): string => toText(args[index] ?? null);
const date = (args: FormulaValue[], index: number): FormulaDate | null => toDate(args[index] ?? null);

/** Numbers of a list, empties and non-numbers left out. */
function numbersOf(values: FormulaValue[]): number[] {
  return flatten(values)
    .filter((value) => !isEmpty(value))
    .map(toNumber)
    .filter((n) => !Number.isNaN(n));
}

/** MAX / MIN: dates when every value is a date, numbers otherwise. */
function extreme(values: FormulaValue[], pick: 'MAX' | 'MIN'): FormulaValue {
  const items = flatten(values).filter((value) => !isEmpty(value));
  if (items.length > 0 && items.every((item) => item instanceof FormulaDate)) {
    const dates = items as FormulaDate[];
    const ms = formulajs[pick](dates.map((d) => d.ms)) as number;
    return dates.find((d) => d.ms === ms)!;
  }
  return fj(formulajs[pick](numbersOf(items)));
}

/** A list for SUMIF / COUNTIF ranges: dates as text, empties kept so positions line up with the sum range. */
const rangeOf = (value: FormulaValue | undefined): unknown[] =>
  flatten([value ?? null]).map((item) => (item instanceof FormulaDate ? toText(item) : item));

const criteria = (value: FormulaValue | undefined) => (typeof value === 'number' ? value : toText(value ?? null));

function dateFn(read: (d: FormulaDate) => FormulaValue): EagerImpl {
  return (args) => {
    const d = date(args, 0);
    return d ? read(d) : null;
  };
}
function shift(apply: (d: FormulaDate, n: number) => FormulaDate): EagerImpl {
  return (args, env) => {
    const d = date(args, 0);
    return d ? apply(d, num(args, 1, env)) : null;
  };
}
function difference(unitMs: number): EagerImpl {
  return (args) => {
    const end = date(args, 0);
    const start = date(args, 1);
    return end && start ? (formulajs.ROUND((end.ms - start.ms) / unitMs, 2) as number) : null;
  };
}
const degrees = (f: (radians: number) => unknown): EagerImpl => (args, env) =>
  fj(formulajs.ROUND(f(formulajs.RADIANS(num(args, 0, env)) as number), 12));

/** The address control's value: {adcode, adname, detail}, or the product's JSON text with Detail. */
function addressText(value: FormulaValue): string {
  let address: unknown = value;
  if (typeof value === 'string') {
    try {
      address = JSON.parse(value);
    } catch {
      return value;
    }
  }
  if (!address || typeof address !== 'object') return toText(value);
  const record = address as Record<string, unknown>;
  const name = String(record.adname ?? record.Adname ?? '');
  const detail = String(record.detail ?? record.Detail ?? '');
  return `${name} ${detail}`.trim();
}

export const FUNCTION_IMPLS: Record<string, EagerImpl | LazyImpl> = {
  // math
  ABS: (a, env) => fj(formulajs.ABS(num(a, 0, env))),
  CEILING: (a, env) => fj(formulajs.CEILING(num(a, 0, env), num(a, 1, env, 1))),
  COS: degrees((r) => formulajs.COS(r)),
  FIXED: (a, env) => fj(formulajs.FIXED(num(a, 0, env), num(a, 1, env, 2), a[2] === undefined ? false : toBool(a[2]))),
  FLOOR: (a, env) => fj(formulajs.FLOOR(num(a, 0, env), num(a, 1, env, 1))),
  INT: (a, env) => fj(formulajs.INT(num(a, 0, env))),
  INTDOWN: (a, env) => fj(formulajs.ROUNDDOWN(num(a, 0, env), 0)),
  INTUP: (a, env) => fj(formulajs.ROUNDUP(num(a, 0, env), 0)),
  LOG: (a, env) => fj(formulajs.ROUND(formulajs.LOG(num(a, 0, env), num(a, 1, env, 10)), 12)),
  // Division by zero gives 0 in the product (h3yun-facts §2.10); MOD follows.
  MOD: (a, env) => (num(a, 1, env) === 0 ? 0 : fj(formulajs.MOD(num(a, 0, env), num(a, 1, env)))),
  PI: () => fj(formulajs.PI()),
  POWER: (a, env) => fj(formulajs.POWER(num(a, 0, env), num(a, 1, env))),
  RAND: (_a, env) => env.random(),
  ROUND: (a, env) => fj(formulajs.ROUND(num(a, 0, env), num(a, 1, env, 0))),
  SIN: degrees((r) => formulajs.SIN(r)),
  SQRT: (a, env) => fj(formulajs.SQRT(num(a, 0, env))),
  TRUNC: (a, env) => fj(formulajs.TRUNC(num(a, 0, env), num(a, 1, env, 0))),
  VALUE: (a) => {
    const value = text(a, 0).trim();
    if (value === '') return null;
    return Number.isNaN(toNumber(value)) && !/%$/.test(value) ? null : fj(formulajs.VALUE(value));
  },

  // aggregate: empties are left out
  SUM: (a) => fj(formulajs.SUM(numbersOf(a))),
  AVG: (a) => {
    const numbers = numbersOf(a);
    return numbers.length === 0 ? 0 : fj(formulajs.AVERAGE(numbers));
  },
  MAX: (a) => extreme(a, 'MAX'),
  MIN: (a) => extreme(a, 'MIN'),
  COUNT: (a) => fj(formulajs.COUNTA(flatten(a).filter((value) => !isEmpty(value)))),
  SUMIF: (a) => fj(formulajs.SUMIF(rangeOf(a[0]), criteria(a[1]), a[2] === undefined ? undefined : rangeOf(a[2]))),
  COUNTIF: (a) => fj(formulajs.COUNTIF(rangeOf(a[0]), criteria(a[1]))),
  LARGE: (a, env) => fj(formulajs.LARGE(numbersOf([a[0]]), num(a, 1, env))),
  SMALL: (a, env) => fj(formulajs.SMALL(numbersOf([a[0]]), num(a, 1, env))),

  // text
  CONCATENATE: (a) => fj(formulajs.CONCATENATE(...a.map(toText))),
  CONTAINS: (a) => {
    const needle = text(a, 1);
    return Array.isArray(a[0]) ? flatten(a[0]).some((item) => toText(item) === needle) : text(a, 0).includes(needle);
  },
  GETADDRESS: (a) => (isEmpty(a[0]) ? null : addressText(a[0])),
  GETUNITNAME: (a, env) => {
    const ids = flatten([a[0]]).filter((id) => !isEmpty(id)).map(toText);
    return ids.map((id) => env.unitName(id) ?? id).join(';');
  },
  LEFT: (a, env) => fj(formulajs.LEFT(text(a, 0), num(a, 1, env, 1))),
  LEN: (a) => fj(formulajs.LEN(text(a, 0))),
  LOWER: (a) => fj(formulajs.LOWER(text(a, 0))),
  REPLACE: (a, env) => fj(formulajs.REPLACE(text(a, 0), num(a, 1, env), num(a, 2, env), text(a, 3))),
  RIGHT: (a, env) => fj(formulajs.RIGHT(text(a, 0), num(a, 1, env, 1))),
  // Not found is 0 in the product, #VALUE! in formulajs.
  SEARCH: (a, env) => fj(formulajs.SEARCH(text(a, 0), text(a, 1), num(a, 2, env, 1))) ?? 0,
  SPLIT: (a) => {
    const value = text(a, 0);
    return value === '' ? [] : value.split(text(a, 1));
  },
  STARTSWITH: (a) => text(a, 0).startsWith(text(a, 1)),
  STRING: (a) => text(a, 0),
  SUBSTITUTE: (a, env) => fj(formulajs.SUBSTITUTE(text(a, 0), text(a, 1), text(a, 2), a[3] === undefined ? undefined : num(a, 3, env))),
  SUBSTRING: (a, env) => fj(formulajs.MID(text(a, 0), num(a, 1, env), num(a, 2, env, text(a, 0).length))),
  TEXT: (a) => {
    const d = a[0] instanceof FormulaDate ? a[0] : null;
    if (d) return formatDate(d, text(a, 1));
    if (isEmpty(a[0] ?? null)) return null;
    const n = toNumber(a[0]);
    return Number.isNaN(n) ? text(a, 0) : fj(formulajs.TEXT(n, text(a, 1)));
  },
  TRIM: (a) => fj(formulajs.TRIM(text(a, 0))),
  UNION: (a) => {
    const seen = new Set<string>();
    return flatten(a).filter((item) => {
      const key = toText(item);
      if (isEmpty(item) || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  },
  UPPER: (a) => fj(formulajs.UPPER(text(a, 0))),
  UPPERMONEY: (a, env) => upperMoney(num(a, 0, env)),

  // date (Asia/Shanghai calendar, dates.ts)
  NOW: (_a, env) => env.now(),
  TODAY: (_a, env) => startOfDay(env.now()),
  DATE: (a, env) => {
    const parts = a.map((_, index) => num(a, index, env));
    if (parts.some(Number.isNaN)) return null;
    const [year, month, day, hour = 0, minute = 0, second = 0] = parts;
    return new FormulaDate(fromCivil(year, month, day, hour, minute, second), a.length <= 3);
  },
  YEAR: dateFn((d) => civilOf(d).year),
  QUARTER: dateFn((d) => Math.ceil(civilOf(d).month / 3)),
  MONTH: dateFn((d) => civilOf(d).month),
  DAY: dateFn((d) => civilOf(d).day),
  HOUR: dateFn((d) => civilOf(d).hour),
  MINUTE: dateFn((d) => civilOf(d).minute),
  SECOND: dateFn((d) => civilOf(d).second),
  WEEKDAY: dateFn((d) => civilOf(d).weekday),
  WEEKNUM: dateFn(weekNumber),
  ADDYEAR: shift((d, n) => addMonths(d, Math.trunc(n) * 12)),
  ADDMONTH: shift((d, n) => addMonths(d, n)),
  ADDDAY: shift((d, n) => new FormulaDate(d.ms + n * DAY_MS, d.dateOnly && Number.isInteger(n))),
  ADDHOUR: shift((d, n) => new FormulaDate(d.ms + n * 3600_000)),
  ADDMINUTE: shift((d, n) => new FormulaDate(d.ms + n * 60_000)),
  YEARS: difference(365 * DAY_MS),
  DAYS: difference(DAY_MS),
  HOURS: difference(3600_000),
  MINUTES: difference(60_000),
  DATEDIF: (a) => {
    const start = date(a, 0);
    const end = date(a, 1);
    return start && end ? dateDif(start, end, text(a, 2)) : null;
  },

  // logic
  IF: { lazy: true, call: (a: (() => FormulaValue)[]) => (toBool(a[0]()) ? a[1]() : a[2] ? a[2]() : null) },
  CASE: {
    lazy: true,
    call: (a: (() => FormulaValue)[]) => {
      for (let i = 0; i + 1 < a.length; i += 2) if (toBool(a[i]())) return a[i + 1]();
      return a.length % 2 === 1 ? a[a.length - 1]() : null;
    },
  },
  AND: (a) => fj(formulajs.AND(...flatten(a).map(toBool))),
  OR: (a) => fj(formulajs.OR(...flatten(a).map(toBool))),
  NOT: (a) => fj(formulajs.NOT(toBool(a[0] ?? null))),
  ISNULL: (a) => isEmpty(a[0] ?? null),
  ISNUMBER: (a) => {
    const value = a[0] ?? null;
    return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(toNumber(value)));
  },

  // other
  NEWGUID: (_a, env) => env.newGuid(),
};

// Aliases share their function.
FUNCTION_IMPLS.AVERAGE = FUNCTION_IMPLS.AVG;
FUNCTION_IMPLS.LENGTH = FUNCTION_IMPLS.LEN;
FUNCTION_IMPLS.TOLOWER = FUNCTION_IMPLS.LOWER;
FUNCTION_IMPLS.TOUPPER = FUNCTION_IMPLS.UPPER;

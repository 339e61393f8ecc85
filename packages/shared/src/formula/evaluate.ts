/** Evaluates a formula over a form's values; the same code runs in the browser and on the server (docs/decisions/0012). */
import { FormulaException, type FormulaError, type FormulaNode } from './ast.ts';
import { formulaFunction } from './catalogue.ts';
import { DAY_MS, FormulaDate, parseDateText } from './dates.ts';
import { FUNCTION_IMPLS, type CallEnv } from './functions.ts';
import { parseFormula } from './parser.ts';
import { cleanNumber, fromFieldValue, isEmpty, toBool, toDate, toNumber, toOutput, toText, type FormulaOutput, type FormulaValue } from './values.ts';

type Row = Readonly<Record<string, unknown>>;

/** Where a formula reads its inputs. Values are the registry's stored values (controls/*.ts). */
export interface FormulaContext {
  /** A main-table field's value by code. */
  value(code: string): unknown;
  /** The rows of a sub-table; `{T.Code}` outside the table is the list of Code over these rows. */
  rows?(subTableCode: string): readonly Row[] | undefined;
  /** When the formula belongs to a sub-table control: `{T.Code}` of that table reads this row. */
  row?: { table: string; values: Row };
  /** The moment NOW() and TODAY() read; default the clock. ms, Date or ISO text. */
  now?: number | Date | string;
  /** Names for GETUNITNAME (users and departments by id); the id itself when missing. */
  unitName?(id: string): string | undefined;
  /** Overrides for RAND() and NEWGUID(), e.g. for repeatable tests. */
  random?(): number;
  newGuid?(): string;
}

export type FormulaResult = { ok: true; value: FormulaOutput } | { ok: false; error: FormulaError };

/** A context over one record's values as the runtime holds them: sub-table values are arrays of row objects. */
export function createFormulaContext(
  values: Readonly<Record<string, unknown>>,
  options: Omit<FormulaContext, 'value' | 'rows'> = {},
): FormulaContext {
  return {
    ...options,
    value: (code) => values[code],
    rows: (table) => (Array.isArray(values[table]) ? (values[table] as Row[]) : undefined),
  };
}

/** A v4 GUID; randomUUID is missing in browsers on plain http, getRandomValues is not. */
function randomGuid(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const LIST_IN_ARITHMETIC = '不能对多个值直接运算，子表字段请放在 SUM 等聚合函数中';

class Evaluator {
  private readonly env: CallEnv;
  private nowValue?: FormulaDate;

  constructor(private readonly context: FormulaContext) {
    const base = { now: () => this.now(), random: () => context.random?.() ?? Math.random(), unitName: (id: string) => context.unitName?.(id) };
    this.env = { ...base, newGuid: () => context.newGuid?.() ?? randomGuid(), fail: () => { throw new Error('unbound'); } };
  }

  private now(): FormulaDate {
    if (!this.nowValue) {
      const raw = this.context.now ?? Date.now();
      const ms = typeof raw === 'number' ? raw : raw instanceof Date ? raw.getTime() : (parseDateText(raw)?.ms ?? Date.now());
      this.nowValue = new FormulaDate(ms);
    }
    return this.nowValue;
  }

  run(node: FormulaNode): FormulaValue {
    switch (node.type) {
      case 'number':
      case 'string':
      case 'boolean':
        return node.value;
      case 'field':
        return this.field(node.field, node.table, node.code);
      case 'unary': {
        const operand = this.run(node.operand);
        if (node.operator === '!') return !toBool(operand);
        if (Array.isArray(operand)) throw new FormulaException(LIST_IN_ARITHMETIC, node.operand.start, node.operand.end);
        const n = toNumber(operand);
        return node.operator === '-' ? cleanNumber(-n) : n;
      }
      case 'binary':
        return this.binary(node as Extract<FormulaNode, { type: 'binary' }>);
      case 'call':
        return this.call(node as Extract<FormulaNode, { type: 'call' }>);
    }
  }

  private field(field: string, table: string | undefined, code: string): FormulaValue {
    if (!table) return fromFieldValue(this.context.value(code));
    const row = this.context.row;
    if (row && row.table === table) return fromFieldValue(row.values[field]);
    const rows = this.context.rows?.(table) ?? [];
    return rows.map((r) => fromFieldValue(r[field]));
  }

  private binary(node: Extract<FormulaNode, { type: 'binary' }>): FormulaValue {
    const { operator } = node;
    if (operator === '&&') return toBool(this.run(node.left)) && toBool(this.run(node.right));
    if (operator === '||') return toBool(this.run(node.left)) || toBool(this.run(node.right));
    const left = this.run(node.left);
    const right = this.run(node.right);
    switch (operator) {
      case '&':
        return toText(left) + toText(right);
      case '=':
        return equals(left, right);
      case '!=':
        return !equals(left, right);
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const order = compare(left, right);
        if (order === null) return false;
        return operator === '<' ? order < 0 : operator === '<=' ? order <= 0 : operator === '>' ? order > 0 : order >= 0;
      }
    }
    if (Array.isArray(left)) throw new FormulaException(LIST_IN_ARITHMETIC, node.left.start, node.left.end);
    if (Array.isArray(right)) throw new FormulaException(LIST_IN_ARITHMETIC, node.right.start, node.right.end);
    return arithmetic(operator, left, right);
  }

  private call(node: Extract<FormulaNode, { type: 'call' }>): FormulaValue {
    const impl = FUNCTION_IMPLS[node.name];
    if (!impl || !formulaFunction(node.name)) throw new FormulaException(`未知函数 ${node.name}`, node.start, node.nameEnd);
    const env: CallEnv = {
      ...this.env,
      fail: (message, index) => {
        const at = index === undefined ? node : node.args[index] ?? node;
        throw new FormulaException(message, at.start, at.end);
      },
    };
    if (typeof impl === 'object') return impl.call(node.args.map((arg) => () => this.run(arg)), env);
    return impl(node.args.map((arg) => this.run(arg)), env);
  }
}

function arithmetic(operator: string, left: FormulaValue, right: FormulaValue): FormulaValue {
  const leftDate = left instanceof FormulaDate ? left : null;
  const rightDate = right instanceof FormulaDate ? right : null;
  if (operator === '+') {
    // A date plus a number of days; text on either side joins as text, as in the product's JavaScript.
    if (leftDate && !rightDate) return new FormulaDate(leftDate.ms + toNumber(right) * DAY_MS, leftDate.dateOnly);
    if (rightDate && !leftDate) return new FormulaDate(rightDate.ms + toNumber(left) * DAY_MS, rightDate.dateOnly);
    if (typeof left === 'string' || typeof right === 'string') return toText(left) + toText(right);
  }
  if (operator === '-') {
    if (leftDate && rightDate) return cleanNumber((leftDate.ms - rightDate.ms) / DAY_MS);
    if (leftDate) return new FormulaDate(leftDate.ms - toNumber(right) * DAY_MS, leftDate.dateOnly);
  }
  const a = toNumber(left);
  const b = toNumber(right);
  switch (operator) {
    case '+':
      return cleanNumber(a + b);
    case '-':
      return cleanNumber(a - b);
    case '*':
      return cleanNumber(a * b);
    default:
      // Division by zero gives 0 (h3yun-facts §2.10).
      return b === 0 ? (Number.isNaN(a) ? NaN : 0) : cleanNumber(a / b);
  }
}

const isNumeric = (value: FormulaValue) =>
  typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(toNumber(value)));

/** Empty equals only empty; numbers and numeric text by value; dates by moment; the rest as text. */
function equals(left: FormulaValue, right: FormulaValue): boolean {
  if (isEmpty(left) || isEmpty(right)) return isEmpty(left) && isEmpty(right);
  if (left instanceof FormulaDate || right instanceof FormulaDate) {
    const a = toDate(left);
    const b = toDate(right);
    return a && b ? a.ms === b.ms : toText(left) === toText(right);
  }
  if (typeof left === 'boolean' && typeof right === 'boolean') return left === right;
  if ((typeof left === 'number' || typeof right === 'number') && isNumeric(left) && isNumeric(right)) return toNumber(left) === toNumber(right);
  return toText(left) === toText(right);
}

/** Order of two values, or null when they cannot be ordered (a date against an empty or non-date). */
function compare(left: FormulaValue, right: FormulaValue): number | null {
  if (left instanceof FormulaDate || right instanceof FormulaDate) {
    const a = toDate(left);
    const b = toDate(right);
    return a && b ? Math.sign(a.ms - b.ms) : null;
  }
  // Empty reads as 0 against numbers and as '' against text.
  const numeric = (isEmpty(left) || isNumeric(left)) && (isEmpty(right) || isNumeric(right));
  if (numeric) return Math.sign(toNumber(left) - toNumber(right));
  const a = toText(left);
  const b = toText(right);
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Evaluates an expression (parsing it first) or a parsed tree; never throws for a problem in the formula. */
export function evaluateFormula(formula: string | FormulaNode, context: FormulaContext): FormulaResult {
  let ast: FormulaNode;
  if (typeof formula === 'string') {
    const parsed = parseFormula(formula);
    if (!parsed.ast) return { ok: false, error: parsed.errors[0] };
    ast = parsed.ast;
  } else ast = formula;
  try {
    return { ok: true, value: toOutput(new Evaluator(context).run(ast)) };
  } catch (error) {
    if (error instanceof FormulaException) return { ok: false, error: error.toError() };
    throw error;
  }
}

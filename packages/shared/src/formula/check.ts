/**
 * Static checks of a parsed formula against a form's fields: references exist, sub-table columns are aggregated
 * outside their table, dates and numbers go where they are expected, and the result suits the control's bindType.
 */
import type { FormulaError, FormulaNode } from './ast.ts';
import { acceptsList, formulaFunction, type FormulaType } from './catalogue.ts';

/** The fields a formula may reference: main-table fields and each sub-table's columns, with their types. */
export interface FormulaFields {
  fields: Readonly<Record<string, FormulaType>>;
  tables: Readonly<Record<string, Readonly<Record<string, FormulaType>>>>;
}

export interface FormulaCheckOptions {
  /** The sub-table the formula's control sits in: its columns read the same row. */
  table?: string;
  /** The control's result type (formula and rollup bindType). */
  bindType?: 'decimal' | 'string' | 'datetime' | 'bool';
}

export interface FormulaCheckResult {
  errors: FormulaError[];
  /** What the formula gives, as far as it can be told without running it. */
  type: FormulaType;
}

/** The formula type of a registry data type (controls/types.ts CONTROL_DATA_TYPES). */
export function formulaTypeOfDataType(dataType: string): FormulaType {
  switch (dataType) {
    case 'string': case 'text': case 'user': case 'unit': case 'reference':
      return 'text';
    case 'decimal': case 'int':
      return 'number';
    case 'datetime':
      return 'date';
    case 'bool':
      return 'bool';
    case 'strings': case 'users': case 'units': case 'references': case 'children':
      return 'list';
    default:
      return 'any';
  }
}

const TYPE_NAMES: Record<FormulaType, string> = { number: '数字', text: '文本', bool: '是/否', date: '日期', list: '多个值', any: '任意' };
const BIND_TYPES: Record<NonNullable<FormulaCheckOptions['bindType']>, { accepts: FormulaType[]; name: string }> = {
  decimal: { accepts: ['number', 'any'], name: '数字' },
  string: { accepts: ['number', 'text', 'bool', 'date', 'list', 'any'], name: '文本' },
  datetime: { accepts: ['date', 'text', 'any'], name: '日期' },
  bool: { accepts: ['bool', 'any'], name: '是/否' },
};
const LIST_MESSAGE = '子表字段有多个值，请放在 SUM、COUNT 等聚合函数中';

/** Codes match exactly, as the runtime reads values by code; a match in another case is offered as a hint. */
function find<T>(record: Readonly<Record<string, T>>, code: string): { value?: T; hint?: string } {
  if (Object.hasOwn(record, code)) return { value: record[code] };
  return { hint: Object.keys(record).find((key) => key.toLowerCase() === code.toLowerCase()) };
}
const hinted = (message: string, hint: string | undefined, wrap: (code: string) => string) => (hint ? `${message}，是否为 ${wrap(hint)}？` : message);

export function checkFormula(ast: FormulaNode, fields: FormulaFields, options: FormulaCheckOptions = {}): FormulaCheckResult {
  const errors: FormulaError[] = [];
  const fail = (node: FormulaNode, message: string) => errors.push({ message, start: node.start, end: node.end });
  const expect = (node: FormulaNode, type: FormulaType, wanted: 'number' | 'date', allowList = false) => {
    if (type === 'list' && !allowList) fail(node, LIST_MESSAGE);
    else if (wanted === 'number' && (type === 'date' || type === 'bool')) fail(node, `这里需要数字，${describe(node)}是${TYPE_NAMES[type]}`);
    else if (wanted === 'date' && (type === 'number' || type === 'bool')) fail(node, `这里需要日期，${describe(node)}是${TYPE_NAMES[type]}`);
  };

  const typeOf = (node: FormulaNode): FormulaType => {
    switch (node.type) {
      case 'number': return 'number';
      case 'string': return 'text';
      case 'boolean': return 'bool';
      case 'field': {
        if (!node.table) {
          const field = find(fields.fields, node.code);
          if (field.value !== undefined) return field.value;
          const table = find(fields.tables, node.code);
          if (table.value) return 'list';
          fail(node, hinted(`字段 {${node.code}} 不存在`, field.hint ?? table.hint, (code) => `{${code}}`));
          return 'any';
        }
        const table = find(fields.tables, node.table);
        if (!table.value) {
          fail(node, hinted(`子表 ${node.table} 不存在`, table.hint, (code) => code));
          return 'any';
        }
        const column = find(table.value, node.field);
        if (column.value === undefined) {
          fail(node, hinted(`子表 ${node.table} 中没有字段 ${node.field}`, column.hint, (code) => code));
          return 'any';
        }
        return options.table === node.table ? column.value : 'list';
      }
      case 'unary': {
        const type = typeOf(node.operand);
        if (node.operator === '!') return 'bool';
        expect(node.operand, type, 'number');
        return 'number';
      }
      case 'binary': {
        const left = typeOf(node.left);
        const right = typeOf(node.right);
        switch (node.operator) {
          case '&': return 'text';
          case '&&': case '||': case '=': case '!=': return 'bool';
          case '<': case '<=': case '>': case '>=':
            if (left === 'list') fail(node.left, LIST_MESSAGE);
            if (right === 'list') fail(node.right, LIST_MESSAGE);
            return 'bool';
          case '+':
            if (left === 'list') fail(node.left, LIST_MESSAGE);
            if (right === 'list') fail(node.right, LIST_MESSAGE);
            if (left === 'text' || right === 'text') return 'text';
            if (left === 'date' || right === 'date') return left === 'date' && right === 'date' ? (fail(node, '两个日期不能相加'), 'any') : 'date';
            return left === 'any' || right === 'any' ? 'any' : 'number';
          case '-':
            if (left === 'date') {
              expect(node.right, right === 'date' ? 'number' : right, 'number');
              return right === 'date' ? 'number' : 'date';
            }
            expect(node.left, left, 'number');
            expect(node.right, right, 'number');
            return 'number';
          default:
            expect(node.left, left, 'number');
            expect(node.right, right, 'number');
            return 'number';
        }
      }
      case 'call': {
        const info = formulaFunction(node.name);
        const argTypes = node.args.map(typeOf);
        if (!info) return 'any';
        node.args.forEach((arg, index) => {
          const type = argTypes[index];
          if (type !== 'list' || acceptsList(info, index)) return;
          // Text functions read a list as its items joined with ';' (the product's multi-select text).
          if (info.category === 'text' || info.category === 'logic') return;
          fail(arg, LIST_MESSAGE);
        });
        if (info.category === 'date' && node.args.length > 0 && info.name !== 'DATE') expect(node.args[0], argTypes[0], 'date', true);
        if (info.category === 'date' && ['YEARS', 'DAYS', 'HOURS', 'MINUTES', 'DATEDIF'].includes(info.name)) expect(node.args[1], argTypes[1], 'date', true);
        if (info.category === 'math') node.args.forEach((arg, index) => argTypes[index] !== 'list' && expect(arg, argTypes[index], 'number'));
        if (info.name === 'IF') return same(argTypes.slice(1));
        if (info.name === 'CASE') return same(argTypes.filter((_, index) => index % 2 === 1 || index === argTypes.length - 1));
        if (info.name === 'MAX' || info.name === 'MIN') return argTypes.every((type) => type === 'date') ? 'date' : 'number';
        return info.returns;
      }
    }
  };

  const type = typeOf(ast);
  if (options.bindType && errors.length === 0) {
    const bind = BIND_TYPES[options.bindType];
    if (!bind.accepts.includes(type)) fail(ast, `公式结果是${TYPE_NAMES[type]}，与控件的结果类型「${bind.name}」不符`);
  }
  return { errors, type };
}

function same(types: FormulaType[]): FormulaType {
  return types.length > 0 && types.every((type) => type === types[0]) ? types[0] : 'any';
}

function describe(node: FormulaNode): string {
  return node.type === 'field' ? `{${node.code}}` : '该值';
}

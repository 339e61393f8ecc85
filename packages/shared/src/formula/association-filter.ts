/**
 * An association's data-range filter (关联表单 "数据范围限定", option associationFilter) as the query engine's filter
 * model (packages/shared/src/query), so the server runs it as one SQL condition (docs/decisions/0016).
 *
 * Written in the formula language: `{Code}` names a field of the associated (source) form, `{this.Code}` a field of
 * the form being filled, whose value is read when the list is asked for. Supported: comparisons of a source field with
 * an expression over this form's values (`{Level} = "VIP"`, `{Amount} >= {this.Min} * 2`), CONTAINS({F}, x),
 * ISNULL({F}), a bare yes/no field, AND / OR / NOT and brackets. An empty value compared with `=` / `!=` means blank /
 * not blank; an order (`>`, `<`, …) against an empty value limits nothing.
 */
import type { FormulaError, FormulaNode } from './ast.ts';
import { walkFormula } from './ast.ts';
import { evaluateFormula, type FormulaContext } from './evaluate.ts';
import { parseFormula } from './parser.ts';
import type { FormulaOutput } from './values.ts';
import type { FilterLeaf, FilterNode } from '../query/filter.ts';

/** The prefix of this form's fields inside an association filter. */
export const THIS_FORM_PREFIX = 'this';

type Operator = FilterLeaf['operator'];
type Scalar = string | number | boolean | null;
export type AssociationFilterResult = { ok: true; filter: FilterNode | undefined } | { ok: false; error: FormulaError };

const COMPARE: Partial<Record<string, { op: Operator; mirror: Operator }>> = {
  '=': { op: 'Equal', mirror: 'Equal' },
  '!=': { op: 'NotEqual', mirror: 'NotEqual' },
  '>': { op: 'Above', mirror: 'Below' },
  '<': { op: 'Below', mirror: 'Above' },
  '>=': { op: 'NotBelow', mirror: 'NotAbove' },
  '<=': { op: 'NotAbove', mirror: 'NotBelow' },
};
const NEGATE: Partial<Record<Operator, Operator>> = {
  Equal: 'NotEqual', NotEqual: 'Equal', Above: 'NotAbove', NotAbove: 'Above', Below: 'NotBelow', NotBelow: 'Below',
  Contains: 'NotContains', NotContains: 'Contains', IsBlank: 'NotBlank', NotBlank: 'IsBlank', In: 'NotIn', NotIn: 'In',
};

const ALL: FilterNode = { type: 'And', children: [] };

class FilterProblem extends Error {
  constructor(message: string, readonly node: FormulaNode) {
    super(message);
  }
}

const isSourceField = (node: FormulaNode): node is Extract<FormulaNode, { type: 'field' }> =>
  node.type === 'field' && node.table?.toLowerCase() !== THIS_FORM_PREFIX;
const mentionsSource = (node: FormulaNode) => [...walkFormula(node)].some(isSourceField);
const sourcePath = (node: Extract<FormulaNode, { type: 'field' }>) => (node.table ? `${node.table}.${node.field}` : node.field);

function toScalar(value: FormulaOutput): Scalar | Scalar[] {
  if (Array.isArray(value)) return value.flatMap((item) => toScalar(item));
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value === '' ? null : value;
  return JSON.stringify(value);
}

/** Field codes of the source form that a filter reads (for the designer's checks and checkreference). */
export function associationFilterSourceFields(expression: string): string[] {
  const parsed = parseFormula(expression);
  if (!parsed.ast) return [];
  return [...new Set([...walkFormula(parsed.ast)].filter(isSourceField).map(sourcePath))];
}

class Compiler {
  constructor(private readonly context: FormulaContext) {}

  private value(node: FormulaNode): Scalar | Scalar[] {
    if (mentionsSource(node)) throw new FilterProblem('比较的另一边不能再引用关联表单的字段', node);
    const result = evaluateFormula(node, this.context);
    if (!result.ok) throw new FilterProblem(result.error.message, node);
    return toScalar(result.value);
  }

  private leaf(field: string, operator: Operator, value: Scalar | Scalar[]): FilterNode {
    const blank = value === null || (Array.isArray(value) && value.length === 0);
    if (blank && (operator === 'Equal' || operator === 'NotEqual')) return { field, operator: operator === 'Equal' ? 'IsBlank' : 'NotBlank' };
    // An order against an empty value (this form's field not filled yet) limits nothing.
    if (blank) return ALL;
    if (Array.isArray(value) && (operator === 'Equal' || operator === 'NotEqual')) return { field, operator: operator === 'Equal' ? 'In' : 'NotIn', value };
    return { field, operator, value };
  }

  compile(node: FormulaNode, negated = false): FilterNode {
    if (node.type === 'unary' && node.operator === '!') return this.compile(node.operand, !negated);
    if (node.type === 'call' && node.name === 'NOT' && node.args.length === 1) return this.compile(node.args[0], !negated);
    if (node.type === 'boolean') return { type: node.value !== negated ? 'And' : 'Or', children: [] };
    if ((node.type === 'binary' && (node.operator === '&&' || node.operator === '||')) || (node.type === 'call' && (node.name === 'AND' || node.name === 'OR'))) {
      const args = node.type === 'binary' ? [node.left, node.right] : node.args;
      const isAnd = node.type === 'binary' ? node.operator === '&&' : node.name === 'AND';
      // De Morgan: NOT (a AND b) = NOT a OR NOT b.
      const type = isAnd !== negated ? 'And' : 'Or';
      // a && b && c is one group, not nested ones (the query engine allows 5 levels).
      const children = args.flatMap((arg) => {
        const child = this.compile(arg, negated);
        return 'children' in child && child.type === type && child.children.length ? child.children : [child];
      });
      return { type, children };
    }
    const leaf = this.compileLeaf(node);
    if (!negated || 'children' in leaf) return leaf;
    const operator = NEGATE[leaf.operator];
    if (!operator) throw new FilterProblem('这个条件不能取反', node);
    return { ...leaf, operator };
  }

  private compileLeaf(node: FormulaNode): FilterNode {
    if (node.type === 'binary' && COMPARE[node.operator]) {
      const compare = COMPARE[node.operator]!;
      if (isSourceField(node.left)) return this.leaf(sourcePath(node.left), compare.op, this.value(node.right));
      if (isSourceField(node.right)) return this.leaf(sourcePath(node.right), compare.mirror, this.value(node.left));
      throw new FilterProblem('比较的一边须是关联表单的字段，如 {字段编码}', node);
    }
    if (node.type === 'call' && node.name === 'CONTAINS' && node.args.length === 2 && isSourceField(node.args[0])) {
      const value = this.value(node.args[1]);
      const field = sourcePath(node.args[0]);
      return value === null ? { field, operator: 'NotBlank' } : { field, operator: 'Contains', value };
    }
    if (node.type === 'call' && node.name === 'ISNULL' && node.args.length === 1 && isSourceField(node.args[0])) {
      return { field: sourcePath(node.args[0]), operator: 'IsBlank' };
    }
    if (isSourceField(node)) return { field: sourcePath(node), operator: 'Equal', value: true };
    throw new FilterProblem('数据范围只支持比较、CONTAINS、ISNULL 与 AND / OR / NOT 的组合', node);
  }
}

/**
 * The filter for the current values of the form being filled (`values`: main fields and sub-table rows by code;
 * `row`: the sub-table row the association sits in). '' means no filter.
 */
export function associationFilterToQuery(
  expression: string,
  values: Readonly<Record<string, unknown>>,
  options: { row?: Readonly<Record<string, unknown>>; now?: Date | number | string } = {},
): AssociationFilterResult {
  if (!expression.trim()) return { ok: true, filter: undefined };
  const parsed = parseFormula(expression);
  if (!parsed.ast) return { ok: false, error: parsed.errors[0] };
  const current = { ...values, ...options.row };
  const context: FormulaContext = {
    now: options.now,
    value: (code) => current[code],
    rows: (table) => (Array.isArray(values[table]) ? (values[table] as Record<string, unknown>[]) : undefined),
    row: { table: THIS_FORM_PREFIX, values: current },
  };
  try {
    return { ok: true, filter: new Compiler(context).compile(parsed.ast) };
  } catch (error) {
    if (error instanceof FilterProblem) return { ok: false, error: { message: error.message, start: error.node.start, end: error.node.end } };
    throw error;
  }
}

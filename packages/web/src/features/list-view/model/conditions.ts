import type { FilterLeaf, FilterNode } from '@tritium/shared/query/index';
import { VALUELESS_OPERATORS } from '@tritium/shared/query/index';
import type { FilterOperator } from '@tritium/shared/constants/formats';

// The filter panel's rows and the style rules' matching (docs/decisions/0017). The panel holds flat conditions
// (AND); the server compiles them with the query engine. Style rules are matched here, on the page's rows, with the
// simple operators; a rule using a Dynamic value or a sub-table column never colours a row.

export interface Condition {
  field: string;
  operator: FilterOperator;
  value?: unknown;
}

const hasValue = (c: Condition) => VALUELESS_OPERATORS.includes(c.operator) || (c.value !== undefined && c.value !== '' && c.value !== null && !(Array.isArray(c.value) && c.value.length === 0));

/** The panel's conditions as one And (conditions still lacking a value are left out); undefined when empty. */
export function toFilter(conditions: Condition[]): FilterNode | undefined {
  const leaves = conditions.filter(hasValue).map((c): FilterLeaf => (VALUELESS_OPERATORS.includes(c.operator) ? { field: c.field, operator: c.operator } : { field: c.field, operator: c.operator, value: c.value as FilterLeaf['value'] }));
  return leaves.length ? { type: 'And', children: leaves } : undefined;
}

/** A saved filter back into panel rows (flat And of leaves; anything else is kept out of the panel). */
export function fromFilter(filter: FilterNode | undefined): Condition[] {
  if (!filter) return [];
  if (!('children' in filter)) return [{ ...filter }];
  if (filter.type !== 'And') return [];
  return filter.children.flatMap((c) => ('children' in c ? [] : [{ ...c }]));
}

const blank = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN);
const text = (v: unknown) => (v == null ? '' : String(v)).toLowerCase();
function compare(a: unknown, b: unknown): number {
  const x = num(a);
  const y = num(b);
  if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

function leafMatches(row: Record<string, unknown>, leaf: FilterLeaf): boolean {
  const v = row[leaf.field];
  const w = leaf.value;
  const list = Array.isArray(w) ? w : [w];
  switch (leaf.operator) {
    case 'IsBlank': return blank(v);
    case 'NotBlank': return !blank(v);
    case 'Equal': return !blank(v) && (Array.isArray(v) ? list.every((x) => v.includes(x)) && v.length === list.length : compare(v, w) === 0);
    case 'NotEqual': return blank(v) || (Array.isArray(v) ? !leafMatches(row, { ...leaf, operator: 'Equal' }) : compare(v, w) !== 0);
    case 'Above': return !blank(v) && compare(v, w) > 0;
    case 'Below': return !blank(v) && compare(v, w) < 0;
    case 'NotAbove': return !blank(v) && compare(v, w) <= 0;
    case 'NotBelow': return !blank(v) && compare(v, w) >= 0;
    case 'Between': {
      const [from, to] = list;
      return !blank(v) && (from == null || compare(v, from) >= 0) && (to == null || compare(v, to) <= 0);
    }
    case 'Contains': return !blank(v) && (Array.isArray(v) ? list.every((x) => v.includes(x)) : text(v).includes(text(w)));
    case 'NotContains': return blank(v) || !(Array.isArray(v) ? list.every((x) => v.includes(x)) : text(v).includes(text(w)));
    case 'In': return !blank(v) && (Array.isArray(v) ? v.some((x) => list.includes(x)) : list.some((x) => compare(v, x) === 0));
    case 'NotIn': return blank(v) || !(Array.isArray(v) ? v.some((x) => list.includes(x)) : list.some((x) => compare(v, x) === 0));
    default: return false;
  }
}

export function matches(row: Record<string, unknown>, node: FilterNode): boolean {
  if (!('children' in node)) return leafMatches(row, node);
  return node.type === 'And' ? node.children.every((c) => matches(row, c)) : node.children.some((c) => matches(row, c));
}

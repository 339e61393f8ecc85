import type { FilterLeaf, FilterNode } from '@tritium/shared/query/index';

// The style rules' matching (docs/decisions/0017): matched here, on the page's rows, with the simple operators; a rule
// using a Dynamic value or a sub-table column never colours a row. The panel's rows are components/filter-editor's.

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

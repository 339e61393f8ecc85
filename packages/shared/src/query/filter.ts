/**
 * The filter model (issue 8 "the query engine"): leaves {field, operator, value} and nested And/Or groups, compiled
 * to SQL on the form's columns by the server (packages/server/src/modules/query). A field is a main-table column
 * (control code or system field) or `<gridCode>.<columnCode>` for a sub-table column (any row matches).
 * docs/decisions/0013-query-engine.md.
 */
import { z } from 'zod';
import { DATA_SCOPES, DEFAULT_DATA_SCOPE, type DataScope } from '../constants/org.ts';
import { FILTER_OPERATORS } from '../constants/formats.ts';
import { OPERATOR_CODES, QUERY_OPERATORS, type QueryOperator } from './operators.ts';

/** Groups nest at most this deep (the root group is level 1). */
export const FILTER_MAX_DEPTH = 5;
/** At most this many leaves in one filter. */
export const FILTER_MAX_LEAVES = 100;
/** At most this many values in one In / NotIn / array value. */
export const FILTER_MAX_VALUES = 500;

const Scalar = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);
/** A scalar, or a list (In, NotIn, Between [from, to], array columns). Dynamic takes a DYNAMIC_VALUES name. */
export const FilterValue = z.union([Scalar, z.array(Scalar).max(FILTER_MAX_VALUES)]);
export type FilterValue = z.infer<typeof FilterValue>;

export const FilterField = z.string().min(1).max(127).regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/, '字段编码无效');

export const FilterLeaf = z.strictObject({
  field: FilterField,
  operator: z.enum(FILTER_OPERATORS),
  /** Absent for IsBlank / NotBlank. */
  value: FilterValue.optional(),
});
export type FilterLeaf = z.infer<typeof FilterLeaf>;

export const FILTER_GROUP_TYPES = ['And', 'Or'] as const;
export interface FilterGroup {
  type: (typeof FILTER_GROUP_TYPES)[number];
  children: FilterNode[];
}
export type FilterNode = FilterLeaf | FilterGroup;

export const FilterGroup: z.ZodType<FilterGroup> = z.lazy(() =>
  z.strictObject({ type: z.enum(FILTER_GROUP_TYPES), children: z.array(FilterNode).max(FILTER_MAX_LEAVES) }),
);
export const FilterNode: z.ZodType<FilterNode> = z.lazy(() => z.union([FilterLeaf, FilterGroup]));

/**
 * What the query engine runs: the filter model plus the product's pattern operators (PATTERN_OPERATORS, from the
 * open API's Matcher). Saved views and the list calls keep to the spec's operators (Filter above).
 */
export const QueryLeaf = FilterLeaf.extend({ operator: z.enum(QUERY_OPERATORS) });
export type QueryLeaf = z.infer<typeof QueryLeaf>;
export interface QueryGroup {
  type: (typeof FILTER_GROUP_TYPES)[number];
  children: QueryNode[];
}
export type QueryNode = QueryLeaf | QueryGroup;

export function isGroup(node: FilterNode): node is FilterGroup;
export function isGroup(node: QueryNode): node is QueryGroup;
export function isGroup(node: QueryNode): boolean {
  return 'children' in node;
}

/** Depth in groups (a leaf alone is 0) and the number of leaves. */
export function filterShape(node: FilterNode): { depth: number; leaves: number } {
  if (!isGroup(node)) return { depth: 0, leaves: 1 };
  let depth = 0;
  let leaves = 0;
  for (const child of node.children) {
    const s = filterShape(child);
    depth = Math.max(depth, s.depth);
    leaves += s.leaves;
  }
  return { depth: depth + 1, leaves };
}

/** A whole filter: a group or a single leaf, at most FILTER_MAX_DEPTH groups deep and FILTER_MAX_LEAVES leaves. */
export const Filter = FilterNode.superRefine((node, ctx) => {
  const { depth, leaves } = filterShape(node);
  if (depth > FILTER_MAX_DEPTH) ctx.addIssue({ code: 'custom', message: `条件最多嵌套${FILTER_MAX_DEPTH}层` });
  if (leaves > FILTER_MAX_LEAVES) ctx.addIssue({ code: 'custom', message: `条件最多${FILTER_MAX_LEAVES}个` });
});

export const DataScopeSchema = z.enum(DATA_SCOPES).default(DEFAULT_DATA_SCOPE);
export { DATA_SCOPES, DEFAULT_DATA_SCOPE, type DataScope };

/**
 * The product's GetListScopeType codes (h3yun-facts §2.6): Own 0, OwnDept 1, Related 2, AllReadable 3, GlobalAll 4,
 * OwnAndOwnDept 5. "Own and relevant" has no code there.
 */
export const DATA_SCOPE_CODES: Readonly<Record<number, DataScope>> = { 0: 'own', 1: 'ownDept', 2: 'relevant', 3: 'all', 4: 'all', 5: 'ownAndOwnDept' };

/** The older equality list of bizdata/query ([{field, value}], AND; null = blank) as a filter. */
export function equalityFilter(filters: readonly { field: string; value: string | number | boolean | null }[]): { type: 'And'; children: FilterLeaf[] } {
  return {
    type: 'And',
    children: filters.map((f): FilterLeaf => (f.value === null ? { field: f.field, operator: 'IsBlank' } : { field: f.field, operator: 'Equal', value: f.value })),
  };
}

/** A Matcher of the product's LoadBizObjects Filter (h3yun-facts §1.5). */
export interface ProductMatcher {
  Type: string;
  Matchers?: ProductMatcher[];
  Name?: string;
  Operator?: number | string;
  Value?: unknown;
}

/**
 * A product Matcher → our filter, with the problems found (path, message) instead of throwing; an empty And/Or
 * matches everything. Every code of the product's table is read; an unknown code is reported.
 */
export function matcherToFilter(matcher: ProductMatcher, path = 'Matcher'): { filter: QueryNode | null; issues: { path: string; message: string }[] } {
  const issues: { path: string; message: string }[] = [];
  const walk = (m: ProductMatcher, at: string): QueryNode | null => {
    if (!m || typeof m !== 'object' || Array.isArray(m)) {
      issues.push({ path: at, message: '须为对象 {Type, …}' });
      return null;
    }
    if (m.Type === 'And' || m.Type === 'Or') {
      if (m.Matchers !== undefined && m.Matchers !== null && !Array.isArray(m.Matchers)) {
        issues.push({ path: `${at}.Matchers`, message: '须为数组' });
        return null;
      }
      const children = (m.Matchers ?? []).map((c, i) => walk(c, `${at}.Matchers.${i}`)).filter((c): c is QueryNode => c !== null);
      return { type: m.Type, children };
    }
    if (m.Type !== 'Item') {
      issues.push({ path: `${at}.Type`, message: '须为 And、Or 或 Item' });
      return null;
    }
    // A code as a number, or as its digits (some clients send "2").
    const code = typeof m.Operator === 'string' && /^\d{1,3}$/.test(m.Operator) ? Number(m.Operator) : m.Operator;
    const operator: QueryOperator | undefined = typeof code === 'number' && Object.hasOwn(OPERATOR_CODES, code) ? OPERATOR_CODES[code] : undefined;
    if (!operator) {
      issues.push({ path: `${at}.Operator`, message: '未知的比较符' });
      return null;
    }
    const leaf = QueryLeaf.safeParse({ field: m.Name, operator, ...(operator === 'IsBlank' || operator === 'NotBlank' ? {} : { value: m.Value ?? null }) });
    if (!leaf.success) {
      for (const issue of leaf.error.issues) issues.push({ path: `${at}.${issue.path[0] === 'field' ? 'Name' : 'Value'}`, message: issue.message });
      return null;
    }
    return leaf.data;
  };
  const filter = walk(matcher, path);
  return { filter: issues.length ? null : filter, issues };
}

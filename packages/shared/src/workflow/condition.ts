import { createFormulaContext, evaluateCondition as evaluateFormulaCondition } from '../formula/index.ts';
import type { Route, RouteCondition } from './model.ts';

// Route conditions on a record's values: the filter model and formulas (docs/decisions/0014, 0023-workflow-completion).

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
const asNumber = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  if (v instanceof Date) return v.getTime();
  return null;
};
const compare = (a: unknown, b: unknown): number | null => {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== null && y !== null) return x - y;
  if (isEmpty(a) || isEmpty(b)) return null;
  return String(a).localeCompare(String(b));
};
const same = (a: unknown, b: unknown): boolean => {
  const c = compare(a, b);
  if (c !== null) return c === 0;
  return isEmpty(a) && isEmpty(b);
};

export function evaluateCondition(condition: RouteCondition, values: Record<string, unknown>): boolean {
  const results = condition.rules.map((rule) => {
    const v = values[rule.field];
    const c = compare(v, rule.value);
    switch (rule.operator) {
      case 'eq':
        return Array.isArray(v) ? v.some((x) => same(x, rule.value)) : same(v, rule.value);
      case 'ne':
        return Array.isArray(v) ? !v.some((x) => same(x, rule.value)) : !same(v, rule.value);
      case 'gt':
        return c !== null && c > 0;
      case 'gte':
        return c !== null && c >= 0;
      case 'lt':
        return c !== null && c < 0;
      case 'lte':
        return c !== null && c <= 0;
      case 'contains':
        return Array.isArray(v) ? v.some((x) => same(x, rule.value)) : typeof v === 'string' && v.includes(String(rule.value ?? ''));
      case 'in':
        return Array.isArray(rule.value) && rule.value.some((x) => (Array.isArray(v) ? v.some((y) => same(y, x)) : same(v, x)));
      case 'empty':
        return isEmpty(v);
      case 'notEmpty':
        return !isEmpty(v);
    }
  });
  return condition.match === 'all' ? results.every(Boolean) : results.some(Boolean);
}

/**
 * The routes a node takes: a Parallel takes every route whose condition holds (or has none); any other node takes
 * the first route whose condition holds, in template order, else its else route.
 */
export function chooseRoutes(routes: Route[], values: Record<string, unknown>, all: boolean, now?: Date): Route[] {
  let context: ReturnType<typeof createFormulaContext> | undefined;
  // A formula that does not evaluate (a field removed since publishing) never takes its route.
  const formulaHolds = (formula: string) => {
    context ??= createFormulaContext(values, now ? { now } : {});
    const result = evaluateFormulaCondition(formula, context);
    return result.ok && result.value;
  };
  const holds = (r: Route) => (!r.condition || evaluateCondition(r.condition, values)) && (!r.formula || formulaHolds(r.formula));
  if (all) return routes.filter((r) => !r.isElse && holds(r));
  const first = routes.find((r) => !r.isElse && holds(r));
  if (first) return [first];
  const fallback = routes.find((r) => r.isElse);
  return fallback ? [fallback] : [];
}

import type { FilterLeaf, FilterNode } from '@tritium/shared/query/index';
import { VALUELESS_OPERATORS } from '@tritium/shared/query/index';
import type { FilterOperator } from '@tritium/shared/constants/formats';

// Flat condition rows (all must hold) and the filter model they stand for: the list view's filter panel and fixed
// filters, and the automations' conditions (issue 21) edit the same rows (docs/decisions/0017).

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

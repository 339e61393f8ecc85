/**
 * Filter operators and which data types they apply to (domain.md §5 "Filter operators"; the product's numeric codes
 * from shared/reference/h3yun-facts.md §1.5). docs/decisions/0013-query-engine.md explains the choices.
 */
import { FILTER_OPERATORS, isSortableDataType, type FilterOperator } from '../constants/formats.ts';
import type { ControlDataType } from '../controls/types.ts';

export { FILTER_OPERATORS, type FilterOperator };

/** Operators that take no value. */
export const VALUELESS_OPERATORS: readonly FilterOperator[] = ['IsBlank', 'NotBlank'];
/** Operators whose value is a list (a single value is read as a list of one). */
export const LIST_OPERATORS: readonly FilterOperator[] = ['In', 'NotIn'];

const TEXT: readonly FilterOperator[] = ['Equal', 'NotEqual', 'Contains', 'NotContains', 'Contained', 'NotContained', 'IsBlank', 'NotBlank', 'In', 'NotIn'];
const ORDERED: readonly FilterOperator[] = ['Equal', 'NotEqual', 'Above', 'Below', 'NotAbove', 'NotBelow', 'Between', 'IsBlank', 'NotBlank', 'In', 'NotIn'];
const ARRAY: readonly FilterOperator[] = ['Equal', 'NotEqual', 'Contains', 'NotContains', 'Contained', 'NotContained', 'In', 'NotIn', 'IsBlank', 'NotBlank'];
const ID: readonly FilterOperator[] = ['Equal', 'NotEqual', 'In', 'NotIn', 'IsBlank', 'NotBlank'];
const BLANK: readonly FilterOperator[] = ['IsBlank', 'NotBlank'];

/**
 * Which operators apply to a column of each data type (controls/types.ts CONTROL_DATA_TYPES). Semantics per type
 * (docs/decisions/0013): text Contains = case-insensitive substring; arrays Contains = holds every value given,
 * Contained = holds only values given, In = holds any; address Contains/In = inside the region (adcode prefix);
 * department Contains = the department or one below it (a report's drill-down into a rolled-up department);
 * Dynamic = a value computed at query time (current user, my department, today, this month, ...).
 */
export const OPERATORS_BY_DATA_TYPE: Readonly<Record<ControlDataType, readonly FilterOperator[]>> = {
  string: TEXT,
  text: ['Equal', 'NotEqual', 'Contains', 'NotContains', 'Contained', 'NotContained', 'IsBlank', 'NotBlank'],
  decimal: ORDERED,
  int: ORDERED,
  datetime: [...ORDERED.filter((o) => o !== 'In' && o !== 'NotIn'), 'Dynamic'],
  bool: ['Equal', 'NotEqual', 'IsBlank', 'NotBlank'],
  strings: ARRAY,
  user: [...ID, 'Dynamic'],
  users: [...ARRAY, 'Dynamic'],
  unit: [...ID, 'Contains', 'Dynamic'],
  units: [...ARRAY, 'Dynamic'],
  address: ['Equal', 'NotEqual', 'Contains', 'NotContains', 'In', 'NotIn', 'IsBlank', 'NotBlank'],
  location: ['Contains', 'NotContains', 'IsBlank', 'NotBlank'],
  file: BLANK,
  files: BLANK,
  children: [],
  reference: ID,
  references: ['Contains', 'NotContains', 'In', 'NotIn', 'IsBlank', 'NotBlank'],
  json: BLANK,
  lookup: [],
  none: [],
};

/**
 * The product's four text-pattern operators (h3yun-facts §1.5 codes 13, 14, 22, 23), beyond the spec's list: the query
 * engine and the open API take them; the list-view designer offers the spec's list only (OPERATORS_BY_DATA_TYPE).
 * docs/decisions/0030.
 */
export const PATTERN_OPERATORS = ['StartWith', 'EndWith', 'NotStartWith', 'NotEndWith'] as const;
export type PatternOperator = (typeof PATTERN_OPERATORS)[number];
/** Every operator a filter leaf may carry: the spec's and the product's pattern operators. */
export const QUERY_OPERATORS = [...FILTER_OPERATORS, ...PATTERN_OPERATORS] as const;
export type QueryOperator = (typeof QUERY_OPERATORS)[number];

/** Pattern operators apply to text and to checkbox lists / batch scans (read as their `a;b` text). */
const PATTERN_DATA_TYPES: readonly ControlDataType[] = ['string', 'text', 'strings'];

export function operatorAppliesTo(operator: QueryOperator, dataType: ControlDataType): boolean {
  if ((PATTERN_OPERATORS as readonly string[]).includes(operator)) return PATTERN_DATA_TYPES.includes(dataType);
  return OPERATORS_BY_DATA_TYPE[dataType].includes(operator as FilterOperator);
}

/**
 * The product's data-type names (h3yun-facts §2.7 (b), BizDataType) for our data types; sorting is allowed on the
 * spec's sortable ones only (domain.md §5: short string, date-time, int, bool, decimal, double).
 */
const PRODUCT_DATA_TYPE: Partial<Record<ControlDataType, string>> = {
  string: 'ShortString',
  text: 'String',
  decimal: 'Decimal',
  int: 'Int',
  datetime: 'DateTime',
  bool: 'Bool',
  user: 'Unit',
  unit: 'Unit',
  users: 'UnitArray',
  units: 'UnitArray',
  strings: 'StringArray',
  reference: 'Association',
  references: 'AssociationArray',
  address: 'Address',
  location: 'Map',
};

export function productDataTypeOf(dataType: ControlDataType): string | undefined {
  return PRODUCT_DATA_TYPE[dataType];
}

/** Whether a column of this data type may be sorted on (domain.md §5). */
export function isSortable(dataType: ControlDataType): boolean {
  const name = PRODUCT_DATA_TYPE[dataType];
  return name !== undefined && isSortableDataType(name);
}

/**
 * The product's ComparisonOperatorType codes (h3yun-facts §1.5) → our operators: the whole table. IsNull/IsNone both
 * read as IsBlank (our blank is null or empty), NotNull/NotNone as NotBlank.
 */
export const OPERATOR_CODES: Readonly<Record<number, QueryOperator>> = {
  0: 'Above',
  1: 'NotBelow',
  2: 'Equal',
  3: 'NotAbove',
  4: 'Below',
  5: 'NotEqual',
  6: 'In',
  7: 'NotIn',
  8: 'Contains',
  13: 'StartWith',
  14: 'EndWith',
  18: 'IsBlank',
  19: 'NotBlank',
  20: 'IsBlank',
  21: 'NotBlank',
  22: 'NotStartWith',
  23: 'NotEndWith',
  24: 'NotContains',
};

/** Our operator → the product's code, where it has one (the first code listed above). */
export const CODE_OF_OPERATOR: Readonly<Partial<Record<QueryOperator, number>>> = Object.fromEntries(
  Object.entries(OPERATOR_CODES)
    .reverse()
    .map(([code, op]) => [op, Number(code)]),
);

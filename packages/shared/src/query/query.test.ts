import { describe, expect, it } from 'vitest';
import { CONTROL_DATA_TYPES } from '../controls/types.ts';
import {
  CODE_OF_OPERATOR, DATA_SCOPE_CODES, DYNAMIC_DATE_VALUES, FILTER_MAX_DEPTH, FILTER_OPERATORS, Filter, OPERATOR_CODES, OPERATORS_BY_DATA_TYPE,
  dayRange, dynamicDateRange, dynamicValuesFor, equalityFilter, filterShape, isSortable, matcherToFilter, operatorAppliesTo,
} from './index.ts';

describe('the filter model', () => {
  it('takes leaves and nested And/Or groups', () => {
    const f = { type: 'Or', children: [{ field: 'Title', operator: 'Contains', value: '客户' }, { type: 'And', children: [{ field: 'Items.Qty', operator: 'Between', value: [1, null] }, { field: 'Done', operator: 'IsBlank' }] }] };
    expect(Filter.parse(f)).toEqual(f);
    expect(filterShape(Filter.parse(f))).toEqual({ depth: 2, leaves: 3 });
    expect(Filter.parse({ field: 'OwnerId', operator: 'Dynamic', value: 'CurrentUser' })).toMatchObject({ operator: 'Dynamic' });
  });

  it('refuses unknown operators, bad field codes, extra keys and filters nested too deep', () => {
    expect(Filter.safeParse({ field: 'Title', operator: 'Like', value: 'x' }).success).toBe(false);
    expect(Filter.safeParse({ field: 'a-b', operator: 'Equal', value: 'x' }).success).toBe(false);
    expect(Filter.safeParse({ field: 'a.b.c', operator: 'Equal', value: 'x' }).success).toBe(false);
    expect(Filter.safeParse({ field: 'Title', operator: 'Equal', value: 'x', extra: 1 }).success).toBe(false);
    expect(Filter.safeParse({ type: 'Xor', children: [] }).success).toBe(false);
    let node: any = { field: 'Title', operator: 'Equal', value: 'x' };
    for (let i = 0; i < FILTER_MAX_DEPTH; i++) node = { type: 'And', children: [node] };
    expect(Filter.safeParse(node).success).toBe(true);
    expect(Filter.safeParse({ type: 'And', children: [node] }).success).toBe(false);
    const many = { type: 'And', children: Array.from({ length: 4 }, () => ({ type: 'Or', children: Array.from({ length: 30 }, () => ({ field: 'A', operator: 'IsBlank' })) })) };
    expect(Filter.safeParse(many).success).toBe(false);
  });

  it('reads the older equality list as Equal / IsBlank leaves', () => {
    expect(equalityFilter([{ field: 'Kind', value: 'x' }, { field: 'Amount', value: null }])).toEqual({
      type: 'And',
      children: [{ field: 'Kind', operator: 'Equal', value: 'x' }, { field: 'Amount', operator: 'IsBlank' }],
    });
  });
});

describe('operators by data type', () => {
  it('gives every operator to some data type and every data column some operator', () => {
    for (const op of FILTER_OPERATORS) expect(CONTROL_DATA_TYPES.some((t) => operatorAppliesTo(op, t)), op).toBe(true);
    for (const t of CONTROL_DATA_TYPES) expect(OPERATORS_BY_DATA_TYPE[t].length > 0, t).toBe(!['children', 'lookup', 'none'].includes(t));
  });

  it('keeps order operators to numbers and dates, Contains to text, lists and places, Dynamic to dates and people', () => {
    expect(operatorAppliesTo('Above', 'decimal')).toBe(true);
    expect(operatorAppliesTo('Above', 'string')).toBe(false);
    expect(operatorAppliesTo('Contains', 'string')).toBe(true);
    expect(operatorAppliesTo('Contains', 'decimal')).toBe(false);
    expect(operatorAppliesTo('Contains', 'address')).toBe(true);
    expect(operatorAppliesTo('Dynamic', 'datetime')).toBe(true);
    expect(operatorAppliesTo('Dynamic', 'user')).toBe(true);
    expect(operatorAppliesTo('Dynamic', 'string')).toBe(false);
    expect(operatorAppliesTo('IsBlank', 'files')).toBe(true);
    expect(operatorAppliesTo('Equal', 'files')).toBe(false);
    expect(dynamicValuesFor('users')).toEqual(['CurrentUser']);
    expect(dynamicValuesFor('unit')).toEqual(['MyDepartment', 'MyDepartmentAndSub']);
    expect(dynamicValuesFor('datetime')).toEqual(DYNAMIC_DATE_VALUES);
  });

  it('sorts only short text, date-time, int, bool and number (domain.md §5)', () => {
    expect(CONTROL_DATA_TYPES.filter(isSortable)).toEqual(['string', 'decimal', 'int', 'datetime', 'bool']);
  });
});

describe("the product's codes", () => {
  it('maps ComparisonOperatorType codes to operators and back', () => {
    // The whole table of h3yun-facts §1.5, and nothing else.
    expect(OPERATOR_CODES).toEqual({
      0: 'Above', 1: 'NotBelow', 2: 'Equal', 3: 'NotAbove', 4: 'Below', 5: 'NotEqual', 6: 'In', 7: 'NotIn', 8: 'Contains', 13: 'StartWith', 14: 'EndWith',
      18: 'IsBlank', 19: 'NotBlank', 20: 'IsBlank', 21: 'NotBlank', 22: 'NotStartWith', 23: 'NotEndWith', 24: 'NotContains',
    });
    expect(operatorAppliesTo('StartWith', 'string')).toBe(true);
    expect(operatorAppliesTo('NotEndWith', 'strings')).toBe(true);
    expect(operatorAppliesTo('StartWith', 'decimal')).toBe(false);
    // The designer's lists keep the spec's operators only.
    expect(Object.values(OPERATORS_BY_DATA_TYPE).some((ops) => ops.includes('StartWith' as never))).toBe(false);
    expect(CODE_OF_OPERATOR).toMatchObject({ Equal: 2, IsBlank: 18, NotBlank: 19, Contains: 8, NotContains: 24 });
    expect(CODE_OF_OPERATOR.Between).toBeUndefined();
    expect(DATA_SCOPE_CODES).toEqual({ 0: 'own', 1: 'ownDept', 2: 'relevant', 3: 'all', 4: 'all', 5: 'ownAndOwnDept' });
  });

  it('reads the reference Matcher (LoadBizObjects Filter) as written', () => {
    const matcher = JSON.parse('{"Type":"And","Matchers":[{"Type":"Item","Name":"SeqNo","Operator":2,"Value":"201900000001"},{"Type":"Or","Matchers":[{"Type":"Item","Name":"Like","Operator":8,"Value":"选项2"}]}]}');
    expect(matcherToFilter(matcher)).toEqual({
      filter: { type: 'And', children: [{ field: 'SeqNo', operator: 'Equal', value: '201900000001' }, { type: 'Or', children: [{ field: 'Like', operator: 'Contains', value: '选项2' }] }] },
      issues: [],
    });
    expect(matcherToFilter({ Type: 'Item', Name: 'Tags', Operator: 6, Value: ['a', 'b'] }).filter).toEqual({ field: 'Tags', operator: 'In', value: ['a', 'b'] });
    expect(matcherToFilter({ Type: 'Item', Name: 'A', Operator: 20 }).filter).toEqual({ field: 'A', operator: 'IsBlank' });
    expect(matcherToFilter({ Type: 'And', Matchers: [{ Type: 'Item', Name: 'A', Operator: 13, Value: 'x' }] }).filter).toEqual({ type: 'And', children: [{ field: 'A', operator: 'StartWith', value: 'x' }] });
    expect(matcherToFilter({ Type: 'And', Matchers: [{ Type: 'Item', Name: 'A', Operator: 9, Value: 'x' }] }).issues).toEqual([{ path: 'Matcher.Matchers.0.Operator', message: '未知的比较符' }]);
    expect(matcherToFilter({ Type: 'Item', Name: 'A', Operator: '23', Value: 'x' }).filter).toEqual({ field: 'A', operator: 'NotEndWith', value: 'x' });
    expect(matcherToFilter({ Type: 'Item', Name: 'A', Operator: 'toString', Value: 'x' }).issues[0].path).toBe('Matcher.Operator');
    expect(matcherToFilter({ Type: 'Or', Matchers: 'x' as never }).issues[0].path).toBe('Matcher.Matchers');
    expect(matcherToFilter({ Type: 'Item', Name: 'a b', Operator: 2, Value: 'x' }).issues[0].path).toBe('Matcher.Name');
  });
});

describe('dynamic dates in Asia/Shanghai', () => {
  const iso = (r: { from: Date; to: Date }) => [r.from.toISOString(), r.to.toISOString()];
  // 2026-11-01 01:30 in Shanghai (a Sunday) is 2026-10-31 17:30 UTC.
  const now = new Date('2026-10-31T17:30:00Z');
  it('computes day, week, month, quarter and year ranges in the zone, weeks from Monday', () => {
    expect(iso(dynamicDateRange('Today', now))).toEqual(['2026-10-31T16:00:00.000Z', '2026-11-01T16:00:00.000Z']);
    expect(iso(dynamicDateRange('Yesterday', now))).toEqual(['2026-10-30T16:00:00.000Z', '2026-10-31T16:00:00.000Z']);
    expect(iso(dynamicDateRange('ThisWeek', now))).toEqual(['2026-10-25T16:00:00.000Z', '2026-11-01T16:00:00.000Z']);
    expect(iso(dynamicDateRange('LastWeek', now))).toEqual(['2026-10-18T16:00:00.000Z', '2026-10-25T16:00:00.000Z']);
    expect(iso(dynamicDateRange('ThisMonth', now))).toEqual(['2026-10-31T16:00:00.000Z', '2026-11-30T16:00:00.000Z']);
    expect(iso(dynamicDateRange('LastMonth', now))).toEqual(['2026-09-30T16:00:00.000Z', '2026-10-31T16:00:00.000Z']);
    expect(iso(dynamicDateRange('ThisQuarter', now))).toEqual(['2026-09-30T16:00:00.000Z', '2026-12-31T16:00:00.000Z']);
    expect(iso(dynamicDateRange('LastYear', now))).toEqual(['2024-12-31T16:00:00.000Z', '2025-12-31T16:00:00.000Z']);
    expect(iso(dynamicDateRange('Last7Days', now))).toEqual(['2026-10-25T16:00:00.000Z', '2026-11-01T16:00:00.000Z']);
  });

  it('rolls months and years over (January: last month is December of the year before)', () => {
    const jan = new Date('2027-01-15T04:00:00Z');
    expect(iso(dynamicDateRange('LastMonth', jan))).toEqual(['2026-11-30T16:00:00.000Z', '2026-12-31T16:00:00.000Z']);
    expect(iso(dynamicDateRange('LastQuarter', jan))).toEqual(['2026-09-30T16:00:00.000Z', '2026-12-31T16:00:00.000Z']);
    expect(iso(dynamicDateRange('NextMonth', new Date('2026-12-20T00:00:00Z')))).toEqual(['2026-12-31T16:00:00.000Z', '2027-01-31T16:00:00.000Z']);
  });

  it('reads a date as its day in the zone and refuses impossible dates', () => {
    expect(iso(dayRange('2026-02-28')!)).toEqual(['2026-02-27T16:00:00.000Z', '2026-02-28T16:00:00.000Z']);
    expect(dayRange('2026-02-30')).toBeNull();
    expect(dayRange('2026-2-3')).toBeNull();
  });
});

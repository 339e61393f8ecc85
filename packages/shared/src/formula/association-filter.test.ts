import { describe, expect, it } from 'vitest';
import { associationFilterSourceFields, associationFilterToQuery } from './association-filter.ts';
import { blockingSubmitRules } from './submit-rules.ts';
import { applyDefaultFormulas } from './default-formulas.ts';
import { controlTypeByKey } from '../controls/index.ts';

const compile = (expression: string, values: Record<string, unknown> = {}) => associationFilterToQuery(expression, values);

describe('association filters as query filters', () => {
  it('compiles comparisons, both ways round, with this form\'s values evaluated', () => {
    expect(compile('{Level} = "VIP" && 10 < {Credit}')).toEqual({ ok: true, filter: { type: 'And', children: [
      { field: 'Level', operator: 'Equal', value: 'VIP' }, { field: 'Credit', operator: 'Above', value: 10 },
    ] } });
    expect(compile('{Credit} >= {this.Min} * 2 || {Owner} = {this.Who}', { Min: 5, Who: 'u1' })).toEqual({ ok: true, filter: { type: 'Or', children: [
      { field: 'Credit', operator: 'NotBelow', value: 10 }, { field: 'Owner', operator: 'Equal', value: 'u1' },
    ] } });
  });

  it('negates leaves and groups (De Morgan), reads CONTAINS, ISNULL, yes/no fields and sub-table columns', () => {
    expect(compile('NOT({A} = 1 AND CONTAINS({B}, "x"))')).toEqual({ ok: true, filter: { type: 'Or', children: [
      { field: 'A', operator: 'NotEqual', value: 1 }, { field: 'B', operator: 'NotContains', value: 'x' },
    ] } });
    expect(compile('!ISNULL({C}) && {Active} && {Lines.Qty} > 0')).toEqual({ ok: true, filter: { type: 'And', children: [
      { field: 'C', operator: 'NotBlank' }, { field: 'Active', operator: 'Equal', value: true }, { field: 'Lines.Qty', operator: 'Above', value: 0 },
    ] } });
  });

  it('an empty value: = is blank, != not blank, an order limits nothing; lists become In', () => {
    expect(compile('{A} = {this.X} && {B} != "" && {C} > {this.X} && {D} = {this.Tags}', { Tags: ['a', 'b'] })).toEqual({ ok: true, filter: { type: 'And', children: [
      { field: 'A', operator: 'IsBlank' }, { field: 'B', operator: 'NotBlank' }, { type: 'And', children: [] }, { field: 'D', operator: 'In', value: ['a', 'b'] },
    ] } });
    expect(compile('')).toEqual({ ok: true, filter: undefined });
  });

  it('refuses what SQL cannot run, with the span of the part at fault', () => {
    const both = compile('{A} = {B}');
    expect(both.ok).toBe(false);
    if (!both.ok) expect([both.error.start, both.error.end]).toEqual([6, 9]);
    expect(compile('LEN({A}) > 2').ok).toBe(false);
    expect(compile('{A} = ').ok).toBe(false);
    expect(associationFilterSourceFields('{A} = {this.B} && {T.C} > 1')).toEqual(['A', 'T.C']);
  });
});

describe('submit rules and default formulas', () => {
  it('a rule blocks while its condition is true; a broken condition does not block', () => {
    const rules = [{ condition: '{Total} > 100', action: 'error' as const, message: 'too much' }, { condition: '{Total} +', action: 'hideButton' as const, message: '' }];
    expect(blockingSubmitRules(rules, { Total: 150 }).map((r) => r.message)).toEqual(['too much']);
    expect(blockingSubmitRules(rules, { Total: 50 })).toEqual([]);
    expect(blockingSubmitRules([{ condition: 'SUM({Lines.Qty}) = 0', action: 'error', message: '' }], { Lines: [] })).toHaveLength(1);
  });

  it('defaults computed in order, converted to each control\'s value, failures leave the plain default', () => {
    const control = (code: string, key: string, defaultFormula: string, options: Record<string, unknown> = {}) => ({ code, type: controlTypeByKey(key)!, options: { defaultFormula, ...options } });
    const values = applyDefaultFormulas(
      [control('A', 'number', '{Base} * 1.5', { decimalPlaces: 1 }), control('B', 'textBox', '"编号-" & {A}'), control('C', 'checkbox', '{A} > 10'), control('D', 'number', '"abc"'), control('E', 'textBox', 'NOPE(')],
      { Base: 7.3, E: 'plain' },
    );
    expect(values).toEqual({ Base: 7.3, A: 11, B: '编号-11', C: true, D: null, E: 'plain' });
  });
});

import { describe, expect, it } from 'vitest';
import { formulasOf } from '../formula/index.ts';
import { BusinessRule, computeWithRollups, findCycles, rollupsOf, rulesToRun } from './index.ts';

// The shared part of rollups and business rules (docs/decisions/0015): the same numbers in the browser and on the server.

const controls = [
  { type: 'gridView', code: 'L', controls: [{ type: 'number', code: 'Qty' }, { type: 'textBox', code: 'Note' }] },
  ...(['sum', 'count', 'max', 'min', 'isNull', 'notNull'] as const).map((rollupType) => ({ type: 'rollup', code: rollupType, options: { rollupType, sourceCode: 'L', sourceField: rollupType === 'isNull' || rollupType === 'notNull' ? 'Note' : 'Qty' } })),
  { type: 'rollup', code: 'Big', options: { rollupType: 'count', sourceCode: 'L', filter: '{L.Qty}>={Min}' } },
  { type: 'rollup', code: 'Other', options: { sourceSchemaCode: 'other', sourceCode: 'Link', sourceField: 'X' } },
  { type: 'number', code: 'Min' },
  { type: 'formula', code: 'Twice', options: { expression: '{sum}*2' } },
];

describe('rollups', () => {
  it('every function over sub-table rows, a filter reading the main table, and formulas over the results', () => {
    const rows = [{ Qty: 4, Note: 'a' }, { Qty: 10, Note: '' }, { Qty: null, Note: 'b' }, { Qty: '1', Note: null }];
    const out = computeWithRollups(formulasOf(controls), rollupsOf(controls), { Min: 4, Other: 77 }, { L: rows });
    expect(out.values).toMatchObject({ sum: 15, count: 4, max: 10, min: 1, isNull: 2, notNull: 2, Big: 2, Twice: 30, Other: 77 });
    expect(computeWithRollups(formulasOf(controls), rollupsOf(controls), { Min: 4 }, { L: [] }).values).toMatchObject({ sum: 0, count: 0, max: null, min: null });
  });
});

describe('business rules', () => {
  const rule = (id: string, on: 'effective' | 'void', enabled = true) => BusinessRule.parse({ id, name: id, on, enabled, action: 'insert', targetSchemaCode: 'T', mappings: [{ field: 'A', value: { type: 'constant', value: 1 } }] });
  it('effective rules top to bottom, void rules bottom to top, disabled ones skipped', () => {
    const rules = [rule('E1', 'effective'), rule('V1', 'void'), rule('E2', 'effective'), rule('V2', 'void'), rule('V3', 'void', false)];
    expect(rulesToRun(rules, 'effective').map((r) => r.id)).toEqual(['E1', 'E2']);
    expect(rulesToRun(rules, 'void').map((r) => r.id)).toEqual(['V2', 'V1']);
  });
  it('shapes: update needs conditions, delete takes no mappings, insert only sets', () => {
    const base = { id: 'R', name: 'R', on: 'effective', targetSchemaCode: 'T' };
    expect(BusinessRule.safeParse({ ...base, action: 'update', mappings: [{ field: 'A', value: { type: 'constant', value: 1 } }] }).success).toBe(false);
    expect(BusinessRule.safeParse({ ...base, action: 'delete', conditions: [{ field: 'A', value: { type: 'field', code: 'ObjectId' } }] }).success).toBe(true);
    expect(BusinessRule.safeParse({ ...base, action: 'insert', mappings: [{ field: 'A', op: 'add', value: { type: 'constant', value: 1 } }] }).success).toBe(false);
  });
  it('finds each cycle of forms once', () => {
    expect(findCycles(new Map([['A', ['B']], ['B', ['C', 'A']], ['C', []]]))).toEqual([['A', 'B']]);
    expect(findCycles(new Map([['A', ['B']], ['B', ['C']]]))).toEqual([]);
  });
});

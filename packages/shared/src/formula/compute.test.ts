import { describe, expect, it } from 'vitest';
import { computeFormulas, formulasOf } from './compute.ts';

const ORDER = [
  { type: 'number', code: 'Price' },
  { type: 'formula', code: 'Total', options: { expression: 'SUM({Items.Amount})', bindType: 'decimal', decimalPlaces: 2 } },
  { type: 'formula', code: 'Taxed', options: { expression: '{Total}*1.13', bindType: 'decimal', decimalPlaces: 2 } },
  { type: 'layout', code: 'L1', controls: [{ type: 'formula', code: 'Capital', options: { expression: 'UPPERMONEY({Taxed})', bindType: 'string' } }] },
  {
    type: 'gridView',
    code: 'Items',
    controls: [
      { type: 'number', code: 'Qty' },
      { type: 'formula', code: 'Amount', options: { expression: '{Items.Qty}*{Price}', bindType: 'decimal', decimalPlaces: 2 } },
    ],
  },
];

describe('computeFormulas', () => {
  it('computes row formulas, then main formulas over them, through layouts, until nothing changes', () => {
    const formulas = formulasOf(ORDER);
    expect(formulas.main.map((f) => f.code)).toEqual(['Total', 'Taxed', 'Capital']);
    expect(formulas.grids).toMatchObject([{ code: 'Items', columns: [{ code: 'Amount' }] }]);
    const input = { values: { Price: 12.5, Total: 999 }, children: { Items: [{ Qty: 2 }, { Qty: 3, Amount: 1 }] } };
    const out = computeFormulas(formulas, input.values, input.children);
    expect(out.children.Items.map((row) => row.Amount)).toEqual([25, 37.5]);
    expect(out.values).toMatchObject({ Total: 62.5, Taxed: 70.63, Capital: '柒拾元陆角叁分' });
    // The inputs are left as they were.
    expect(input.values.Total).toBe(999);
    expect(input.children.Items[1].Amount).toBe(1);
  });

  it('gives empty results for empty inputs and ignores forms without formulas', () => {
    const out = computeFormulas(formulasOf(ORDER), {}, { Items: [] });
    expect(out.values).toMatchObject({ Total: 0, Taxed: 0 });
    const none = formulasOf([{ type: 'textBox', code: 'A' }]);
    expect(computeFormulas(none, { A: 'x' }, {}).values).toEqual({ A: 'x' });
  });
});

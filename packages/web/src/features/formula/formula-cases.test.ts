import { describe, expect, it } from 'vitest';
import { FORMULA_CASE_GROUPS, FORMULA_CASES, isErrorExpectation, runFormulaCase } from '@tritium/shared/formula/cases';
import { evaluateFormula, createFormulaContext } from '@tritium/shared/formula/index';

// The shared formula case suite in the browser build (vite's module resolution, happy-dom): the same cases and the
// same expected results as packages/shared/src/formula/formula.test.ts in Node, so the form runtime's live result
// equals the one the server stores (docs/decisions/0012-formula-language.md).

describe('formula cases in the browser build', () => {
  it('runs the whole suite', () => {
    expect(FORMULA_CASES.length).toBeGreaterThanOrEqual(200);
  });

  for (const [group, cases] of Object.entries(FORMULA_CASE_GROUPS)) {
    it(`${group}: ${cases.length} cases give the expected results`, () => {
      const mismatches = cases.flatMap((formulaCase) => {
        const result = runFormulaCase(formulaCase);
        const expected = isErrorExpectation(formulaCase.expected)
          ? { ok: false, error: formulaCase.expected.error }
          : { ok: true, value: formulaCase.expected };
        return JSON.stringify(result) === JSON.stringify(expected) ? [] : [{ expression: formulaCase.expression, expected, result }];
      });
      expect(mismatches).toEqual([]);
    });
  }

  it('reads dates in Asia/Shanghai whatever the browser clock zone', () => {
    const context = createFormulaContext({ At: '2024-02-29T16:30:00Z' }, { now: Date.UTC(2024, 1, 29, 20) });
    expect(evaluateFormula('TEXT({At}, "yyyy-MM-dd HH:mm")', context)).toEqual({ ok: true, value: '2024-03-01 00:30' });
    expect(evaluateFormula('TODAY()', context)).toEqual({ ok: true, value: '2024-03-01T00:00:00+08:00' });
  });
});

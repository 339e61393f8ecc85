import { describe, expect, it } from 'vitest';
import { FORMULA_CASE_GROUPS, FORMULA_CASES, isErrorExpectation, runFormulaCase } from './cases.ts';
import {
  checkFormula, coerceFormulaResult, createFormulaContext, dependenciesOf, evaluateCondition, evaluateFormula, FORMULA_FUNCTIONS, findFormulaCycles,
  parseFormula, type FormulaFields,
} from './index.ts';
import { FUNCTION_IMPLS } from './functions.ts';

// The case suite (cases.ts) in Node; packages/web/src/features/formula/formula-cases.test.ts runs it in the browser build.

describe('formula cases', () => {
  for (const [group, cases] of Object.entries(FORMULA_CASE_GROUPS)) {
    describe(group, () => {
      it.each(cases.map((formulaCase) => [formulaCase.expression, formulaCase] as const))('%s', (_expression, formulaCase) => {
        const result = runFormulaCase(formulaCase);
        if (isErrorExpectation(formulaCase.expected)) expect(result).toEqual({ ok: false, error: formulaCase.expected.error });
        else expect(result).toEqual({ ok: true, value: formulaCase.expected });
      });
    });
  }

  it('has at least 200 cases and calls every catalogue function', () => {
    expect(FORMULA_CASES.length).toBeGreaterThanOrEqual(200);
    const called = new Set(FORMULA_CASES.flatMap((formulaCase) => {
      const ast = parseFormula(formulaCase.expression).ast;
      return ast ? [...JSON.stringify(ast).matchAll(/"name":"([A-Z]+)"/g)].map((m) => m[1]) : [];
    }));
    expect(FORMULA_FUNCTIONS.map((info) => info.name).filter((name) => !called.has(name))).toEqual([]);
  });
});

describe('function catalogue', () => {
  it('every function has an implementation, a Chinese description and an example that parses', () => {
    for (const info of FORMULA_FUNCTIONS) {
      expect(FUNCTION_IMPLS[info.name], info.name).toBeDefined();
      expect(info.description).toMatch(/[\u4e00-\u9fa5]/);
      expect(parseFormula(info.example).errors, info.example).toEqual([]);
    }
  });
});

describe('parse tree', () => {
  it('keeps source positions of every node', () => {
    const { ast } = parseFormula('ROUND({Lines.Qty} * 2, 1)');
    expect(ast).toMatchObject({
      type: 'call', name: 'ROUND', start: 0, end: 25, nameEnd: 5,
      args: [{ type: 'binary', operator: '*', start: 6, end: 21, left: { type: 'field', table: 'Lines', field: 'Qty', start: 6, end: 17 } }, { type: 'number', value: 1, start: 23, end: 24 }],
    });
  });
});

describe('dependenciesOf', () => {
  it('lists referenced codes once, in source order', () => {
    expect(dependenciesOf('{B}+SUM({T.Qty})*{A}-{B}')).toEqual(['B', 'T.Qty', 'A']);
    expect(dependenciesOf(parseFormula('1+2').ast!)).toEqual([]);
    expect(dependenciesOf('1+')).toEqual([]);
  });
});

describe('findFormulaCycles', () => {
  const formula = (code: string, expression: string) => ({ type: 'formula', code, options: { expression } });
  it('finds cycles between formulas, through sub-tables and rollups, and nothing in a sound form', () => {
    expect(findFormulaCycles({ controls: [{ type: 'number', code: 'A' }, formula('B', '{A}*2'), formula('C', '{B}+{A}')] })).toEqual([]);
    expect(findFormulaCycles({ controls: [formula('A', '{B}+1'), formula('B', '{C}'), formula('C', '{A}')] })).toEqual([['A', 'B', 'C']]);
    expect(findFormulaCycles({ controls: [formula('Self', '{Self}+1')] })).toEqual([['Self']]);
    const grid = { type: 'gridView', code: 'T', controls: [{ type: 'number', code: 'Qty' }, formula('Share', '{T.Qty}/{Total}')] };
    expect(findFormulaCycles({ controls: [grid, formula('Total', 'SUM({T.Share})')] })).toEqual([['T.Share', 'Total']]);
    const rollup = { type: 'rollup', code: 'R', options: { sourceCode: 'T', sourceField: 'Share' } };
    const layout = { type: 'layout', code: 'L1', controls: [rollup] };
    expect(findFormulaCycles({ controls: [{ ...grid, controls: [formula('Share', '{R}*2')] }, layout] })).toEqual([['T.Share', 'R']]);
  });

  it('follows a sub-table rollup through its filter, not the filter of a rollup over another form', () => {
    const grid = { type: 'gridView', code: 'T', controls: [{ type: 'number', code: 'Qty' }] };
    const counted = (options: Record<string, unknown>) => ({ type: 'rollup', code: 'Big', options: { rollupType: 'count', ...options } });
    expect(findFormulaCycles({ controls: [grid, formula('Min', '{Big}+1'), counted({ sourceCode: 'T', filter: '{T.Qty}>={Min}' })] })).toEqual([['Min', 'Big']]);
    expect(findFormulaCycles({ controls: [formula('Min', '{Big}+1'), counted({ sourceSchemaCode: 'other', sourceCode: 'Link', filter: '{Min}>1' })] })).toEqual([]);
  });
});

describe('checkFormula', () => {
  const fields: FormulaFields = {
    fields: { Price: 'number', Name: 'text', Due: 'date', Tags: 'list', Done: 'bool' },
    tables: { Lines: { Qty: 'number', Product: 'text' } },
  };
  const check = (expression: string, options = {}) => checkFormula(parseFormula(expression).ast!, fields, options);

  it('reports unknown fields and sub-tables with their positions', () => {
    expect(check('{Price}+{Nope}').errors).toEqual([{ message: '字段 {Nope} 不存在', start: 8, end: 14 }]);
    expect(check('SUM({X.Qty})').errors).toEqual([{ message: '子表 X 不存在', start: 4, end: 11 }]);
    expect(check('SUM({Lines.Nope})').errors).toEqual([{ message: '子表 Lines 中没有字段 Nope', start: 4, end: 16 }]);
    expect(check('{price}*2').errors).toEqual([{ message: '字段 {price} 不存在，是否为 {Price}？', start: 0, end: 7 }]);
    expect(check('SUM({lines.qty})').errors).toEqual([{ message: '子表 lines 不存在，是否为 Lines？', start: 4, end: 15 }]);
  });

  it('needs sub-table columns in aggregates outside their table, not inside', () => {
    expect(check('{Lines.Qty}*2').errors[0].message).toContain('聚合函数');
    expect(check('{Lines.Qty}*2', { table: 'Lines' }).errors).toEqual([]);
    expect(check('SUM({Lines.Qty})*2')).toEqual({ errors: [], type: 'number' });
    expect(check('CONTAINS({Lines.Product}, "a")').errors).toEqual([]);
  });

  it('checks dates, numbers and the bindType of the result', () => {
    expect(check('YEAR({Price})').errors).toEqual([{ message: '这里需要日期，{Price}是数字', start: 5, end: 12 }]);
    expect(check('ROUND({Due}, 2)').errors).toEqual([{ message: '这里需要数字，{Due}是日期', start: 6, end: 11 }]);
    expect(check('ADDDAY({Due}, 3)', { bindType: 'datetime' })).toEqual({ errors: [], type: 'date' });
    expect(check('{Name}&"x"', { bindType: 'decimal' }).errors).toEqual([{ message: '公式结果是文本，与控件的结果类型「数字」不符', start: 0, end: 10 }]);
    expect(check('IF({Done}, 1, 2)', { bindType: 'decimal' }).errors).toEqual([]);
    expect(check('{Due}-{Due}').type).toBe('number');
  });
});

describe('time zone', () => {
  it('gives the same date results whatever the machine zone', () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ['America/New_York', 'Pacific/Kiritimati', 'UTC']) {
        process.env.TZ = zone;
        for (const formulaCase of FORMULA_CASE_GROUPS.dates) {
          if (!isErrorExpectation(formulaCase.expected)) expect(runFormulaCase(formulaCase), `${zone} ${formulaCase.expression}`).toEqual({ ok: true, value: formulaCase.expected });
        }
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});

describe('limits', () => {
  it('refuses formulas nested too deeply instead of overflowing the stack', () => {
    expect(parseFormula(`${'('.repeat(150)}1${')'.repeat(150)}`).errors[0]).toMatchObject({ message: '公式嵌套过深（最多100层）', start: 100 });
    expect(parseFormula(Array.from({ length: 600 }, () => '1').join('+')).errors[0].message).toBe('公式过于复杂（运算超过500层）');
    expect(evaluateFormula(Array.from({ length: 400 }, () => '{A}').join('+'), createFormulaContext({ A: 1 }))).toEqual({ ok: true, value: 400 });
  });
});

describe('results as control values', () => {
  it('converts to the bindType and applies decimal places', () => {
    expect(coerceFormulaResult(2.345, { bindType: 'decimal', decimalPlaces: 2 })).toBe(2.35);
    expect(coerceFormulaResult(-2.5, { bindType: 'decimal' })).toBe(-3);
    expect(coerceFormulaResult('12.5', { bindType: 'decimal', decimalPlaces: 0 })).toBe(13);
    expect(coerceFormulaResult('abc', { bindType: 'decimal' })).toBeNull();
    expect(coerceFormulaResult(null, { bindType: 'decimal' })).toBeNull();
    expect(coerceFormulaResult(12, { bindType: 'string' })).toBe('12');
    expect(coerceFormulaResult(['A', 'B'], { bindType: 'string' })).toBe('A;B');
    expect(coerceFormulaResult('2024-02-29', { bindType: 'datetime' })).toBe('2024-02-29T00:00:00+08:00');
    expect(coerceFormulaResult('2024-02-29T16:00:00Z', { bindType: 'datetime' })).toBe('2024-03-01T00:00:00+08:00');
    expect(coerceFormulaResult('soon', { bindType: 'datetime' })).toBeNull();
    expect(coerceFormulaResult(0, { bindType: 'bool' })).toBe(false);
    expect(coerceFormulaResult('是', { bindType: 'bool' })).toBe(true);
  });

  it('evaluates hide conditions: hidden while true, never for an empty condition', () => {
    const context = createFormulaContext({ Kind: 'A', Tags: ['甲'] });
    expect(evaluateCondition('{Kind}!="A" AND {Kind}!="B"', context)).toEqual({ ok: true, value: false });
    expect(evaluateCondition('CONTAINS({Tags}, "甲")', context)).toEqual({ ok: true, value: true });
    expect(evaluateCondition('  ', context)).toEqual({ ok: true, value: false });
    expect(evaluateCondition('{Kind} =', context)).toMatchObject({ ok: false, error: { start: 8, end: 8 } });
  });
});

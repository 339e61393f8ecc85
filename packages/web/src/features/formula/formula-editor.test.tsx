import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { FORMULA_FUNCTIONS, FORMULA_CATEGORY_NAMES } from '@tritium/shared/formula/index';
import { renderPage } from '../../test/render.tsx';
import { ok, stubFetch } from '../../test/fetch-stub.ts';
import { formulaCompletionSource } from './formula-completion.ts';
import { FormulaEditor } from './formula-editor.tsx';

const FIELDS = [{ ref: 'Qty', label: '数量' }, { ref: 'Lines.Price', label: '明细.单价' }];
const FUNCTIONS = FORMULA_FUNCTIONS.map((fn) => ({ ...fn, categoryName: FORMULA_CATEGORY_NAMES[fn.category] }));
const source = formulaCompletionSource(() => FIELDS, () => FUNCTIONS);

function complete(doc: string, explicit = false): CompletionResult | null {
  const state = EditorState.create({ doc });
  return source(new CompletionContext(state, doc.length, explicit)) as CompletionResult | null;
}

describe('formula completion', () => {
  it('offers the fields after an open brace, closing it on apply', () => {
    const result = complete('SUM({Li')!;
    expect(result.from).toBe(5);
    expect(result.options.map((o) => [o.label, o.detail, o.apply])).toEqual([['Qty', '数量', 'Qty}'], ['Lines.Price', '明细.单价', 'Lines.Price}']]);
  });

  it('offers the functions on a word, with signature, description and example; nothing on an empty spot unless asked', () => {
    const result = complete('1 + UPPERM')!;
    expect(result.from).toBe(4);
    const upper = result.options.find((o) => o.label === 'UPPERMONEY')!;
    expect(upper.apply).toBe('UPPERMONEY(');
    expect(upper.detail).toContain('UPPERMONEY');
    expect(String(upper.info)).toContain('→');
    expect(complete('1 + ')).toBeNull();
    expect(complete('1 + ', true)!.options.length).toBe(FUNCTIONS.length);
  });
});

describe('the formula editor', () => {
  it('marks the syntax error at once, and the server\'s check of a published form', async () => {
    const { callsTo } = stubFetch({
      'GET /v1/formula/function/list': () => ok({ list: FUNCTIONS, total: FUNCTIONS.length, hasMore: false }),
      'POST /v1/formula/expression/validate': () => ok({ valid: false, errors: [{ message: '字段 Nope 不存在', start: 0, end: 6 }], dependencies: ['Nope'], resultType: 'number' }),
    });
    renderPage('/', <FormulaEditor ariaLabel="公式" value="{Nope}+1" onChange={() => undefined} fields={FIELDS} validateWith={{ schemaCode: 'f_order', bindType: 'decimal' }} />, '/');
    expect(await screen.findByText('字段 Nope 不存在', {}, { timeout: 3000 })).toBeTruthy();
    expect(callsTo('POST', '/v1/formula/expression/validate')[0].body).toEqual({ expression: '{Nope}+1', schemaCode: 'f_order', bindType: 'decimal' });
    const view = EditorView.findFromDOM(screen.getByLabelText('公式'))!;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: 'SUM(1,' } });
    await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).not.toContain('字段 Nope 不存在'), { timeout: 3000 });
    expect(screen.getByRole('alert').textContent).toBeTruthy();
    expect(callsTo('POST', '/v1/formula/expression/validate')).toHaveLength(1);
  });
});

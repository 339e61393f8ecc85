import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMULA_FUNCTIONS } from '@tritium/shared/formula/index';
import { call, type TestApp } from '../../../test/helpers.ts';
import type { OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// The formula editor's calls (docs/decisions/0012-formula-language.md): parse with positions, validate against the
// published form, and the function catalogue.

let t: TestApp, a: OrgClient, appCode: string, schemaCode: string;

const ORDER = definition([
  { type: 'textBox', code: 'Customer' },
  { type: 'number', code: 'Discount' },
  { type: 'dateTime', code: 'Due' },
  { type: 'checkbox', code: 'Urgent' },
  { type: 'checkboxList', code: 'Tags', options: { defaultItems: ['甲', '乙'] } },
  {
    type: 'gridView', code: 'Lines', controls: [
      { type: 'textBox', code: 'Product' },
      { type: 'number', code: 'Qty' },
      { type: 'number', code: 'Price' },
      { type: 'formula', code: 'Amount', options: { expression: '{Lines.Qty}*{Lines.Price}' } },
    ],
  },
  { type: 'formula', code: 'Total', options: { expression: 'SUM({Lines.Amount})-{Discount}' } },
]);

beforeAll(async () => {
  ({ t, a, appCode } = await adminWithApp());
  schemaCode = (await createForm(a, appCode)).code as string;
  await publish(a, schemaCode, ORDER);
});
afterAll(() => t.close());

describe('POST /v1/formula/expression/parse', () => {
  it('answers the references, the functions and the tree of a good expression', async () => {
    const parsed = await a.post('/v1/formula/expression/parse', { expression: 'ROUND(SUM({Lines.Amount}) * (1 - {Discount}), 2)' });
    expect(parsed).toMatchObject({ valid: true, errors: [], dependencies: ['Lines.Amount', 'Discount'], functions: ['ROUND', 'SUM'] });
    expect(parsed.ast).toMatchObject({ type: 'call', name: 'ROUND', start: 0, end: 48 });
  });

  it('answers a syntax error with its position, in Chinese', async () => {
    expect(await a.post('/v1/formula/expression/parse', { expression: 'IF({Qty} > 1, "多", ' })).toEqual({
      valid: false, errors: [{ message: '公式不完整：末尾缺少内容', start: 19, end: 19 }], dependencies: [], functions: [], ast: null,
    });
    const unknown = await a.post('/v1/formula/expression/parse', { expression: '1 + FOO(2)' });
    expect(unknown.errors).toEqual([{ message: '未知函数 FOO', start: 4, end: 7 }]);
  });

  it('checks references too when given the form', async () => {
    const parsed = await a.post('/v1/formula/expression/parse', { expression: '{Discount} + {Nope}', schemaCode });
    expect(parsed).toMatchObject({ valid: false, errors: [{ message: '字段 {Nope} 不存在', start: 13, end: 19 }], dependencies: ['Discount', 'Nope'] });
  });

  it('refuses a body without an expression and a caller without a session', async () => {
    expect((await a.raw('POST', '/v1/formula/expression/parse', {})).body.errorCode).toBe(777);
    expect((await call(t.app, 'POST', '/v1/formula/expression/parse', { body: { expression: '1' } })).status).toBe(401);
  });
});

describe('POST /v1/formula/expression/validate', () => {
  const validate = (body: Record<string, unknown>) => a.post('/v1/formula/expression/validate', { schemaCode, ...body });

  it('accepts references to published fields, sub-table columns in aggregates and system fields', async () => {
    expect(await validate({ expression: 'SUM({Lines.Amount}) - {Discount}', bindType: 'decimal' })).toEqual({
      valid: true, errors: [], dependencies: ['Lines.Amount', 'Discount'], resultType: 'number',
    });
    expect(await validate({ expression: 'YEAR({CreatedTime}) & "-" & {Customer}', bindType: 'string' })).toMatchObject({ valid: true, resultType: 'text' });
    expect(await validate({ expression: 'ADDMONTH({Due}, 1)', bindType: 'datetime' })).toMatchObject({ valid: true, resultType: 'date' });
    expect(await validate({ expression: 'CONTAINS({Tags}, "甲") && {Urgent}', bindType: 'bool' })).toMatchObject({ valid: true, resultType: 'bool' });
  });

  it('reads a sub-table column as the same row inside its table and as a list outside', async () => {
    expect(await validate({ expression: '{Lines.Qty}*{Lines.Price}', table: 'Lines', bindType: 'decimal' })).toMatchObject({ valid: true, resultType: 'number' });
    expect((await validate({ expression: '{Lines.Qty}*{Lines.Price}' })).errors).toEqual([
      { message: '子表字段有多个值，请放在 SUM、COUNT 等聚合函数中', start: 0, end: 11 },
      { message: '子表字段有多个值，请放在 SUM、COUNT 等聚合函数中', start: 12, end: 25 },
    ]);
    expect((await validate({ expression: '1', table: 'Nope' })).errors).toEqual([{ message: '子表 Nope 不存在', start: 0, end: 1 }]);
  });

  it('reports missing fields, wrong types and a result that does not suit the bindType, with positions', async () => {
    expect((await validate({ expression: '{Discount} + {Lines.Nope}' })).errors).toEqual([{ message: '子表 Lines 中没有字段 Nope', start: 13, end: 25 }]);
    expect((await validate({ expression: 'YEAR({Discount})' })).errors).toEqual([{ message: '这里需要日期，{Discount}是数字', start: 5, end: 15 }]);
    expect((await validate({ expression: '{Customer} & "!"', bindType: 'decimal' })).errors).toEqual([
      { message: '公式结果是文本，与控件的结果类型「数字」不符', start: 0, end: 16 },
    ]);
    expect(await validate({ expression: 'ROUND(' })).toEqual({ valid: false, errors: [{ message: '公式不完整：末尾缺少内容', start: 6, end: 6 }], dependencies: [], resultType: null });
  });

  it('needs a published form', async () => {
    const draftOnly = (await createForm(a, appCode)).code as string;
    const answer = await a.raw('POST', '/v1/formula/expression/validate', { schemaCode: draftOnly, expression: '1' });
    expect(answer.body.errorCode).toBe(240004);
  });
});

describe('GET /v1/formula/function/list', () => {
  it('lists every function with its category, signature, Chinese description and example', async () => {
    const all = await a.get('/v1/formula/function/list');
    expect(all.total).toBe(FORMULA_FUNCTIONS.length);
    expect(all.hasMore).toBe(false);
    expect(all.list.find((f: { name: string }) => f.name === 'UPPERMONEY')).toEqual({
      name: 'UPPERMONEY', category: 'text', categoryName: '文本函数', signature: 'UPPERMONEY(金额)', description: '人民币大写金额',
      example: 'UPPERMONEY(1234.56)', exampleResult: '壹仟贰佰叁拾肆元伍角陆分', minArgs: 1, maxArgs: 1, returns: 'text',
    });
    const dates = await a.get('/v1/formula/function/list', { category: 'date' });
    expect(dates.list.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['ADDMONTH', 'DATEDIF', 'TODAY']));
    expect(dates.list.every((f: { category: string }) => f.category === 'date')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { controlTypeByKey } from './registry.ts';
import { controlValueProblem } from './check-value.ts';
import { controlFromInput } from './input-values.ts';
import { fractionDigits } from './options/number.ts';
import { localizeIssue, translateMessage } from '../validation/messages.ts';

const textBox = controlTypeByKey('textBox');
const number = controlTypeByKey('number');
const date = controlTypeByKey('dateTime');

describe('controlValueProblem: the check the runtime and the server share', () => {
  it('checks text modes', () => {
    expect(controlValueProblem(textBox, { textMode: 'Email' }, 'a@b.cn')).toBeNull();
    expect(controlValueProblem(textBox, { textMode: 'Email' }, 'a@b')).toBe('请输入正确的邮箱地址');
    expect(controlValueProblem(textBox, { textMode: 'Telephone' }, '400-123-4567')).toBeNull();
    expect(controlValueProblem(textBox, { textMode: 'Telephone' }, '12345')).toBe('请输入正确的电话号码');
    expect(controlValueProblem(textBox, { textMode: 'IdCard' }, '11010519491231002X')).toBeNull();
    expect(controlValueProblem(textBox, { textMode: 'IdCard' }, '110105194912310021')).toBe('请输入正确的身份证号');
    expect(controlValueProblem(textBox, { textMode: 'Normal' }, 'anything')).toBeNull();
  });
  it('lets empty values through (required is checked apart)', () => {
    expect(controlValueProblem(textBox, { textMode: 'Email' }, '')).toBeNull();
    expect(controlValueProblem(number, { rangeRule: { min: 1 } }, null)).toBeNull();
  });
  it('checks the value schema first, then number and date ranges', () => {
    expect(controlValueProblem(textBox, {}, 'x'.repeat(201))).toBe('最多200个字符');
    expect(controlValueProblem(number, { rangeRule: { min: 1, max: 10 } }, 0)).toBe('不能小于1');
    expect(controlValueProblem(number, { rangeRule: { min: 1, max: 10 } }, 11)).toBe('不能大于10');
    expect(controlValueProblem(number, { rangeRule: { min: 1, max: 10 } }, 10)).toBeNull();
    const range = { rangeRule: { min: '2026-01-01T00:00:00Z', max: '2026-12-31T23:59:59Z' } };
    expect(controlValueProblem(date, range, '2025-12-31T23:59:59Z')).toBe('不能早于2026-01-01');
    expect(controlValueProblem(date, range, '2027-01-01T00:00:00Z')).toBe('不能晚于2026-12-31');
    expect(controlValueProblem(date, range, '2026-06-01T00:00:00Z')).toBeNull();
  });

  it('refuses a number with more decimals than the control keeps, never rounding it', () => {
    const zero = number.options.parse({ displayName: '金额' });
    expect(controlValueProblem(number, zero, 2380.5)).toBe('最多0位小数');
    expect(controlValueProblem(number, zero, 99.75)).toBe('最多0位小数');
    expect(controlValueProblem(number, zero, 2380)).toBeNull();
    // Options as stored before parsing: the show mode's default places (0, or 2 for a percentage).
    expect(controlValueProblem(number, {}, 2380.5)).toBe('最多0位小数');
    expect(controlValueProblem(number, { showMode: 'percentage' }, 25.5)).toBeNull();
    const two = number.options.parse({ decimalPlaces: 2 });
    expect(controlValueProblem(number, two, controlFromInput(number, '2380.50'))).toBeNull();
    expect(controlValueProblem(number, two, 12.34)).toBeNull();
    expect(controlValueProblem(number, two, 12.345)).toBe('最多2位小数');
    expect(controlValueProblem(number, two, 1e-7)).toBe('最多2位小数');
  });
  it('names the field in the message, in either language', () => {
    const issue = { path: 'values.Amount', label: '金额', message: '最多0位小数' };
    expect(localizeIssue(issue, 'zh-CN').message).toBe('金额：最多0位小数');
    expect(translateMessage('最多2位小数', 'en-US')).toBe('At most 2 decimal places');
  });
});

describe('fractionDigits', () => {
  it('counts the digits after the point of the shortest form', () => {
    expect([2380, 2380.5, 2380.5, 12.34, -0.125, 1e-7, 1.5e-10, 1e21].map(fractionDigits)).toEqual([0, 1, 1, 2, 3, 7, 11, 0]);
  });
});

import { describe, expect, it } from 'vitest';
import { controlTypeByKey } from './registry.ts';
import { controlValueProblem } from './check-value.ts';

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
});

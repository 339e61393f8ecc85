import { describe, it, expect } from 'vitest';
import type { z } from 'zod';
import {
  codeSchema,
  emailSchema,
  idCardSchema,
  legacyPasswordSchema,
  mobileSchema,
  nameSchema,
  passwordSchema,
  phoneSchema,
  telephoneSchema,
  verifyCodeSchema,
} from './zod.ts';

function firstMessage(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('mobileSchema', () => {
  it('trims and accepts a mainland mobile', () => {
    expect(mobileSchema.parse(' 13912345678 ')).toBe('13912345678');
  });
  it.each(['1391234567', '139123456789', '12912345678', ''])('refuses %j with the zh-CN message', (value) => {
    expect(firstMessage(mobileSchema, value)).toBe('请输入正确的11位手机号');
  });
});

describe('passwordSchema', () => {
  it('accepts 8 to 16 letters and digits', () => {
    expect(passwordSchema.parse('abcd1234')).toBe('abcd1234');
  });
  it.each(['12345678', 'abcdefgh', 'abc1234', 'abcdefghijklmnop1', ' abcd1234'])('refuses %j', (value) => {
    expect(firstMessage(passwordSchema, value)).toBe('密码须为8-16位字母和数字的组合');
  });
  it('keeps the legacy 6-character rule apart', () => {
    expect(legacyPasswordSchema.safeParse('abc123').success).toBe(true);
    expect(passwordSchema.safeParse('abc123').success).toBe(false);
  });
});

describe('verifyCodeSchema', () => {
  it('accepts six digits, trimmed', () => {
    expect(verifyCodeSchema.parse(' 012345')).toBe('012345');
  });
  it.each(['12345', '1234567', '12a456'])('refuses %j', (value) => {
    expect(firstMessage(verifyCodeSchema, value)).toBe('请输入6位数字验证码');
  });
});

describe('codeSchema', () => {
  it('accepts letters, digits and underscore', () => {
    expect(codeSchema.parse('order_2024')).toBe('order_2024');
  });
  it('asks for a code when empty', () => {
    expect(firstMessage(codeSchema, '  ')).toBe('请输入编码');
  });
  it.each(['2024', 'order-code', '订单'])('refuses %j', (value) => {
    expect(firstMessage(codeSchema, value)).toBe('编码只能包含字母、数字和下划线，且不能全为数字');
  });
});

describe('nameSchema', () => {
  it('defaults to 2 to 32 characters, counting Chinese characters as one', () => {
    const schema = nameSchema();
    expect(schema.parse(' 采购 ')).toBe('采购');
    expect(schema.safeParse('采'.repeat(32)).success).toBe(true);
    expect(firstMessage(schema, '采')).toBe('名称须为2-32个字符');
    expect(firstMessage(schema, '采'.repeat(33))).toBe('名称须为2-32个字符');
  });
  it('takes other bounds', () => {
    const schema = nameSchema(1, 4);
    expect(schema.safeParse('a').success).toBe(true);
    expect(firstMessage(schema, 'abcde')).toBe('名称须为1-4个字符');
  });
});

describe('other schemas', () => {
  it('emailSchema', () => {
    expect(emailSchema.parse(' a@b.cn ')).toBe('a@b.cn');
    expect(firstMessage(emailSchema, 'a@b')).toBe('请输入正确的邮箱地址');
  });
  it('phoneSchema and telephoneSchema differ on 400 numbers', () => {
    expect(phoneSchema.safeParse('400-123-4567').success).toBe(false);
    expect(telephoneSchema.safeParse('400-123-4567').success).toBe(true);
    expect(phoneSchema.safeParse('010-12345678').success).toBe(true);
  });
  it('idCardSchema verifies the check character', () => {
    expect(idCardSchema.parse(' 11010519491231002X ')).toBe('11010519491231002X');
    expect(firstMessage(idCardSchema, '110105194912310021')).toBe('请输入正确的身份证号码');
  });
  it('refuses non-strings', () => {
    expect(mobileSchema.safeParse(13912345678).success).toBe(false);
  });
});

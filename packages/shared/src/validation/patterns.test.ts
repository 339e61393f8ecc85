import { describe, it, expect } from 'vitest';
import {
  CODE_PATTERN,
  EMAIL_PATTERN,
  LANDLINE_PATTERN,
  LEGACY_PASSWORD_PATTERN,
  MOBILE_PATTERN,
  PASSWORD_PATTERN,
  PHONE_PATTERN,
  TELEPHONE_PATTERN,
  VERIFY_CODE_PATTERN,
  idCardCheckChar,
  isCode,
  isEmail,
  isIdCard,
  isLandline,
  isLegacyPassword,
  isMobile,
  isPassword,
  isPhone,
  isTelephone,
  isVerifyCode,
} from './patterns.ts';

interface Case {
  name: string;
  check: (value: unknown) => boolean;
  accepted: string[];
  refused: string[];
}

const cases: Case[] = [
  {
    name: 'email',
    check: isEmail,
    accepted: ['a@b.cn', 'zhang.san@example.com', 'user+tag@mail.example.org', 'li_si%x@sub-domain.example.co', 'A1@EXAMPLE.COM', 'x-y@a1.io'],
    refused: ['', 'plainaddress', '@example.com', 'user@', 'user@example', 'user..dot@example.com', '.user@example.com', 'user@-example.com', 'user@example.c', 'user name@example.com', '张三@example.com', 'user@example.com '],
  },
  {
    name: 'mobile',
    check: isMobile,
    accepted: ['13000000000', '13912345678', '15012345678', '16612345678', '17712345678', '18800001111', '19912345678'],
    refused: ['', '1391234567', '139123456789', '12912345678', '10012345678', '23912345678', '139-1234-5678', '+8613912345678', '1391234567a', ' 13912345678', '一三九一二三四五六七八'],
  },
  {
    name: 'landline',
    check: isLandline,
    accepted: ['010-12345678', '01012345678', '0755-2345678', '07552345678', '021-87654321-123', '0571-88886666-1', '0311-5678901'],
    refused: ['', '12345678', '010-1234567a', '001-2345678', '010-123456', '010-123456789', '0-12345678', '00-12345678', '010--12345678', '010-12345678-', '010-12345678-1234567', '010 12345678', '〇一〇-12345678'],
  },
  {
    name: 'phone (mobile or landline)',
    check: isPhone,
    accepted: ['13912345678', '19912345678', '010-12345678', '0755-2345678', '021-87654321-123', '01012345678'],
    refused: ['', '1391234567', '139123456789', '12912345678', '400-123-4567', '12345678', 'abc', '13912345678 '],
  },
  {
    name: 'telephone (with 400/800 numbers)',
    check: isTelephone,
    accepted: ['400-123-4567', '4001234567', '400-1234567', '800-820-8820', '8008208820', '13912345678', '010-12345678', '0755-2345678-88'],
    refused: ['', '500-123-4567', '400-12-34567', '400123456', '40012345678', '400 123 4567', '12912345678', 'tel:4001234567', '四零零1234567'],
  },
  {
    name: 'password (8 to 16, letters and digits)',
    check: isPassword,
    accepted: ['abcd1234', 'Passw0rd', 'A1b2C3d4E5f6G7h8', '1234567a', 'a1234567', 'ABCDEFG1', 'abcdefghijklmno1'],
    refused: ['', '12345678', 'abcdefgh', 'abc1234', 'abcdefghijklmnop1', 'abcd 1234', 'abcd_1234', 'abcd1234!', '密码abcd1234', 'ABCDEFGHIJKLMNOP'],
  },
  {
    name: 'legacy password (6 to 16, letters and digits)',
    check: isLegacyPassword,
    accepted: ['abc123', 'a12345', '1a2b3c', 'abcd1234', 'Passw0rd', 'A1b2C3d4E5f6G7h8'],
    refused: ['', 'ab123', '123456', 'abcdef', 'abcdefghijklmnop1', 'abc 123', 'abc-123', '密码abc123'],
  },
  {
    name: 'code (letters, digits, underscore, not only digits)',
    check: isCode,
    accepted: ['a', 'A1', 'order_2024', '_', '_123', '123abc', 'D001', 'Schema_Code_X'],
    refused: ['', '123', '0', '20240101', 'order-code', 'order code', 'order.code', '订单', 'code订单', 'code$', 'ｃｏｄｅ'],
  },
  {
    name: 'verify code (6 digits)',
    check: isVerifyCode,
    accepted: ['000000', '123456', '999999', '012345', '654321', '100000'],
    refused: ['', '12345', '1234567', '12345a', '12 345', ' 123456', '１２３４５６', '一二三四五六'],
  },
  {
    name: 'identity card (15 or 18 digits)',
    check: (value) => isIdCard(value, new Date('2025-06-01T00:00:00Z')),
    accepted: [
      '11010519491231002X', // the standard's own example
      '11010519491231002x', // lower-case check character
      '440301199001011234',
      '310115200002294567', // 29 February of a leap year
      '510107198510123016',
      '440301202401150019',
      '110105491231002', // 15 digits, born 1949-12-31
      '440301900101123', // 15 digits, born 1990-01-01
    ],
    refused: [
      '',
      '440301199001011235', // wrong check digit
      '11010519491231002Y',
      '110101199902301231', // 1999-02-30 does not exist, check digit is right
      '110105190002291239', // 1900 is not a leap year
      '110105209901011234', // born in the future
      '440301199013011236', // month 13
      '44030119900101123', // 17 digits
      '4403011990010112345', // 19 digits
      '040301199001011234', // area code starting 0
      '110105000229123', // 15 digits, 1900-02-29
      '44030119900101123４',
    ],
  },
];

describe.each(cases)('$name', ({ check, accepted, refused }) => {
  it('has at least six samples each way', () => {
    expect(accepted.length).toBeGreaterThanOrEqual(6);
    expect(refused.length).toBeGreaterThanOrEqual(6);
  });
  it.each(accepted)('accepts %j', (value) => {
    expect(check(value)).toBe(true);
  });
  it.each(refused)('refuses %j', (value) => {
    expect(check(value)).toBe(false);
  });
  it('refuses non-strings', () => {
    for (const value of [undefined, null, 13912345678, {}, ['a@b.cn']]) expect(check(value)).toBe(false);
  });
});

describe('identity card check character', () => {
  it('follows ISO 7064 MOD 11-2', () => {
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(idCardCheckChar('44030119900101123')).toBe('4');
  });
  it('refuses a number whose date is later than today', () => {
    expect(isIdCard('440301202401150019', new Date('2024-01-14T00:00:00Z'))).toBe(false);
    expect(isIdCard('440301202401150019', new Date('2024-01-16T00:00:00Z'))).toBe(true);
  });
});

describe('patterns', () => {
  it('keep no state between calls (no g or y flag)', () => {
    for (const pattern of [EMAIL_PATTERN, MOBILE_PATTERN, LANDLINE_PATTERN, PHONE_PATTERN, TELEPHONE_PATTERN, PASSWORD_PATTERN, LEGACY_PASSWORD_PATTERN, CODE_PATTERN, VERIFY_CODE_PATTERN]) {
      expect(pattern.global || pattern.sticky).toBe(false);
    }
    expect([isMobile('13912345678'), isMobile('13912345678')]).toEqual([true, true]);
  });
});

/** zod 4 schemas built on the shared patterns, with the zh-CN messages the forms show (domain.md §5). */
import { z } from 'zod';
import { NAME_LENGTH } from '../constants/limits.ts';
import {
  CODE_PATTERN,
  EMAIL_PATTERN,
  LEGACY_PASSWORD_PATTERN,
  MOBILE_PATTERN,
  PASSWORD_PATTERN,
  PHONE_PATTERN,
  TELEPHONE_PATTERN,
  VERIFY_CODE_PATTERN,
  isIdCard,
} from './patterns.ts';

/** Mainland mobile number, as typed on the sign-in and registration pages; surrounding spaces are dropped. */
export const mobileSchema = z.string().trim().regex(MOBILE_PATTERN, '请输入正确的11位手机号');

/** A new password. Not trimmed: spaces are not allowed, and silently removing them would change the password. */
export const passwordSchema = z.string().regex(PASSWORD_PATTERN, '密码须为8-16位字母和数字的组合');

/** A password set under the older 6–16 rule. */
export const legacyPasswordSchema = z.string().regex(LEGACY_PASSWORD_PATTERN, '密码须为6-16位字母和数字的组合');

export const verifyCodeSchema = z.string().trim().regex(VERIFY_CODE_PATTERN, '请输入6位数字验证码');

/** App, schema and field codes: they end up in URLs and column names, hence the narrow alphabet. */
export const codeSchema = z
  .string()
  .trim()
  .min(1, '请输入编码')
  .regex(CODE_PATTERN, '编码只能包含字母、数字和下划线，且不能全为数字');

/** App, group and form names (domain.md §5: 2 to 32 characters by default). */
export function nameSchema(min: number = NAME_LENGTH.min, max: number = NAME_LENGTH.max) {
  const message = `名称须为${min}-${max}个字符`;
  return z.string().trim().min(min, message).max(max, message);
}

export const emailSchema = z.string().trim().regex(EMAIL_PATTERN, '请输入正确的邮箱地址');

/** Mobile or landline number. */
export const phoneSchema = z.string().trim().regex(PHONE_PATTERN, '请输入正确的手机号或座机号');

/** Mobile, landline or 400/800 number (text controls in Telephone mode). */
export const telephoneSchema = z.string().trim().regex(TELEPHONE_PATTERN, '请输入正确的电话号码');

/** 15- or 18-digit identity number with a real birth date and (18 digits) a valid check character. */
export const idCardSchema = z
  .string()
  .trim()
  .refine((value) => isIdCard(value), '请输入正确的身份证号码');

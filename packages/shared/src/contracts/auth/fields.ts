import { z } from 'zod';

// The patterns live in validation/patterns.ts; these copies keep the contracts self-contained until they are wired.
const MOBILE = /^1[3-9]\d{9}$/;
const PASSWORD = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{8,16}$/;

export const Mobile = z.string().trim().regex(MOBILE, '请输入正确的11位手机号');
export const Password = z.string().regex(PASSWORD, '密码须为8-16位字母和数字的组合');
/** Sign-in accepts any stored password shape (older accounts may predate the 8–16 rule). */
export const AnyPassword = z.string().min(1, '请输入密码').max(64);
export const VerifyCode = z.string().trim().regex(/^\d{6}$/, '请输入6位数字验证码');
export const EngineCode = z.string().trim().regex(/^[a-z0-9]{4,32}$/, '组织编码无效');
export const PersonName = z.string().trim().min(1, '请输入姓名').max(32, '姓名最多32个字符');
export const EngineName = z.string().trim().min(2, '组织名称为2-32个字符').max(32, '组织名称为2-32个字符');

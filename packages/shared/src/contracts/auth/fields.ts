import { z } from 'zod';

import { mobileSchema, passwordSchema, verifyCodeSchema } from '../../validation/zod.ts';
import { nameSchema } from '../../validation/zod.ts';

export const Mobile = mobileSchema;
export const Password = passwordSchema;
/** Sign-in accepts any stored password shape (older accounts may predate the 8–16 rule). */
export const AnyPassword = z.string().min(1, '请输入密码').max(64);
export const VerifyCode = verifyCodeSchema;
export const EngineCode = z.string().trim().regex(/^[a-z0-9]{4,32}$/, '组织编码无效');
export const PersonName = z.string().trim().min(1, '请输入姓名').max(32, '姓名最多32个字符');
export const EngineName = nameSchema();

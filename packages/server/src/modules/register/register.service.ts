import { AppError, parameterError } from '../../lib/app-error.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { newId } from '../../lib/ids.ts';
import { findAccountById, findAccountByMobile, insertAccountIfAbsent } from '../account/account.repo.ts';
import { createEngine } from '../engine/engine.service.ts';
import { startSession, type LoginResultData, type SignInDeps } from '../auth/sign-in.service.ts';

/** Company scales offered at registration (GET /v1/register/getscalelist). */
export const SCALES = [
  { code: '1-20', name: '1-20人' },
  { code: '21-50', name: '21-50人' },
  { code: '51-100', name: '51-100人' },
  { code: '101-200', name: '101-200人' },
  { code: '201-500', name: '201-500人' },
  { code: '501-1000', name: '501-1000人' },
  { code: '1000+', name: '1000人以上' },
] as const;

export interface RegisterInput {
  mobile?: string;
  code?: string;
  password?: string;
  userName?: string;
  engineName: string;
  scale?: string;
}

/**
 * Registers an engine. A signed-in account adds one more engine; otherwise the mobile number is proven by a
 * 'register' code, and a number new to the platform also gets its account (name and password required).
 */
export async function registerEngine(deps: SignInDeps, signedInAccountId: string | null, input: RegisterInput): Promise<LoginResultData> {
  if (input.scale && !SCALES.some((s) => s.code === input.scale)) throw parameterError([{ path: 'scale', message: '组织规模无效' }]);
  let account = signedInAccountId ? await findAccountById(deps.db, signedInAccountId) : undefined;
  if (!account) {
    const missing = (['mobile', 'code'] as const).filter((k) => !input[k]).map((path) => ({ path, message: path === 'mobile' ? '请输入手机号' : '请输入验证码' }));
    if (missing.length) throw parameterError(missing);
    const existing = await findAccountByMobile(deps.db, input.mobile!);
    if (!existing) {
      const issues = [];
      if (!input.password) issues.push({ path: 'password', message: '请设置登录密码' });
      if (!input.userName) issues.push({ path: 'userName', message: '请输入姓名' });
      if (issues.length) throw parameterError(issues);
    }
    await deps.codes.consume(input.mobile!, 'register', input.code!);
    if (existing) {
      account = existing;
    } else {
      account = await insertAccountIfAbsent(deps.db, { id: newId(), mobile: input.mobile!, name: input.userName!, passwordHash: await hashPassword(input.password!) });
    }
  }
  if (account.state === 'disabled') throw new AppError('UserDisabled');
  const { engineCode } = await createEngine(deps.db, {
    accountId: account.id,
    engineName: input.engineName,
    scale: input.scale,
    userName: input.userName ?? account.name,
    mobile: account.mobile,
  });
  return startSession(deps, account, engineCode);
}

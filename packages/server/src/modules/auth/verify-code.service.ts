import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashVerifyCode } from '../../lib/passwords.ts';
import type { SmsSender } from './sms.ts';

export type VerifyCodeScene = 'login' | 'register' | 'reset' | 'bind';

/** Rules for verification codes (domain.md §5: 6 digits). */
export const VERIFY_CODE_RULES = {
  ttlSeconds: 5 * 60,
  resendSeconds: 60,
  perMobilePerDay: 10,
  maxAttempts: 5,
} as const;

const SCENE_TEXT: Record<VerifyCodeScene, string> = {
  login: '登录',
  register: '注册',
  reset: '重置密码',
  bind: '绑定手机',
};

export interface VerifyCodeService {
  send(mobile: string, scene: VerifyCodeScene): Promise<{ expiresIn: number; resendAfter: number }>;
  /** Consumes a matching code or throws 201101. */
  consume(mobile: string, scene: VerifyCodeScene, code: string): Promise<void>;
}

export function createVerifyCodeService(deps: { db: Db; sms: SmsSender; fixedCode?: string; log: FastifyBaseLogger }): VerifyCodeService {
  const { db, sms, fixedCode, log } = deps;
  if (fixedCode && sms.kind !== 'log') throw new Error('TRITIUM_FIXED_VERIFY_CODE cannot be used with a real SMS provider');
  if (fixedCode && !/^\d{6}$/.test(fixedCode)) throw new Error('TRITIUM_FIXED_VERIFY_CODE must be 6 digits');

  return {
    async send(mobile, scene) {
      const recent = await db
        .selectFrom('platform.verify_codes')
        .select((eb) => [
          eb.fn.countAll<number>().as('today'),
          // The resend interval is per scene: a person who just registered may ask for a sign-in code at once.
          eb.fn.max(eb.case().when('scene', '=', scene).then(eb.ref('created_time')).end()).as('last'),
        ])
        .where('mobile', '=', mobile)
        .where('created_time', '>', sql<Date>`now() - interval '1 day'`)
        .executeTakeFirstOrThrow();
      const last = recent.last ? new Date(recent.last as Date).getTime() : 0;
      if (Number(recent.today) >= VERIFY_CODE_RULES.perMobilePerDay) throw new AppError('VerifyCodeLimited');
      if (Date.now() - last < VERIFY_CODE_RULES.resendSeconds * 1000) {
        throw new AppError('VerifyCodeLimited', { detail: { retryAfter: Math.ceil((last + VERIFY_CODE_RULES.resendSeconds * 1000 - Date.now()) / 1000) } });
      }
      const code = fixedCode ?? String(randomInt(0, 1_000_000)).padStart(6, '0');
      const row = await db
        .insertInto('platform.verify_codes')
        .values({
          mobile,
          scene,
          code_hash: hashVerifyCode(mobile, code),
          expires_at: new Date(Date.now() + VERIFY_CODE_RULES.ttlSeconds * 1000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      try {
        await sms.send(mobile, `您的${SCENE_TEXT[scene]}验证码是 ${code}，${VERIFY_CODE_RULES.ttlSeconds / 60} 分钟内有效。请勿告诉他人。`);
      } catch (error) {
        // A code that never reached the person must not count against their limits.
        await db.deleteFrom('platform.verify_codes').where('id', '=', row.id).execute();
        log.warn({ err: error, mobile }, 'SMS send failed');
        throw new AppError('SmsSendFailed');
      }
      return { expiresIn: VERIFY_CODE_RULES.ttlSeconds, resendAfter: VERIFY_CODE_RULES.resendSeconds };
    },

    async consume(mobile, scene, code) {
      const ok = await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('platform.verify_codes')
          .select(['id', 'code_hash', 'attempts'])
          .where('mobile', '=', mobile)
          .where('scene', '=', scene)
          .where('consumed_at', 'is', null)
          .where('expires_at', '>', sql<Date>`now()`)
          .orderBy('created_time', 'desc')
          .limit(1)
          .forUpdate()
          .executeTakeFirst();
        if (!row || row.attempts >= VERIFY_CODE_RULES.maxAttempts) return false;
        if (row.code_hash !== hashVerifyCode(mobile, code)) {
          await trx.updateTable('platform.verify_codes').set({ attempts: row.attempts + 1 }).where('id', '=', row.id).execute();
          return false;
        }
        await trx.updateTable('platform.verify_codes').set({ consumed_at: new Date() }).where('id', '=', row.id).execute();
        return true;
      });
      if (!ok) throw new AppError('VerifyCodeInvalid');
    },
  };
}

import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashVerifyCode } from '../../lib/passwords.ts';
import type { SmsSender } from './sms.ts';
import { countUnderLimit, uncount } from './access-counter.ts';

export type VerifyCodeScene = 'login' | 'register' | 'reset' | 'bind' | 'query';

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
  query: '查询数据',
};

export interface VerifyCodeService {
  /** `clientAddress`: the requester's address, counted against the per-address limit when there is one. */
  send(mobile: string, scene: VerifyCodeScene, clientAddress?: string): Promise<{ expiresIn: number; resendAfter: number }>;
  /** Consumes a matching code or throws 201101. */
  consume(mobile: string, scene: VerifyCodeScene, code: string): Promise<void>;
}

export interface CodeSendAddressLimit {
  max: number;
  windowSeconds: number;
}

/**
 * `addressLimit`: code requests per client address (docs/decisions/0002: 10 a minute, 429), counted in the database
 * so that parallel requests and several server processes share one count; none when rate limits are off.
 */
export function createVerifyCodeService(deps: {
  db: Db;
  sms: SmsSender;
  fixedCode?: string;
  log: FastifyBaseLogger;
  addressLimit?: CodeSendAddressLimit;
}): VerifyCodeService {
  const { db, sms, fixedCode, log, addressLimit } = deps;
  if (fixedCode && sms.kind !== 'log') throw new Error('TRITIUM_FIXED_VERIFY_CODE cannot be used with a real SMS provider');
  if (fixedCode && !/^\d{6}$/.test(fixedCode)) throw new Error('TRITIUM_FIXED_VERIFY_CODE must be 6 digits');

  return {
    async send(mobile, scene, clientAddress) {
      const code = fixedCode ?? String(randomInt(0, 1_000_000)).padStart(6, '0');
      const addressKey = clientAddress && addressLimit ? `code-send:address:${clientAddress}` : undefined;
      // Every request counts, as a rate limit does; only a message that could not be sent gives its count back.
      if (addressKey && !(await countUnderLimit(db, addressKey, addressLimit!.max, addressLimit!.windowSeconds))) {
        throw new AppError('RateLimited');
      }
      const row = await db.transaction().execute(async (trx) => {
        // One send per number at a time: the limits are read and the new code written as one step, so parallel
        // requests for a number cannot all pass the checks (docs/decisions/0027).
        await sql`select pg_advisory_xact_lock(hashtext(${`tritium:code-send:${mobile}`}))`.execute(trx);
        const recent = await trx
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
        return trx
          .insertInto('platform.verify_codes')
          .values({
            mobile,
            scene,
            code_hash: hashVerifyCode(mobile, code),
            expires_at: new Date(Date.now() + VERIFY_CODE_RULES.ttlSeconds * 1000),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      });
      try {
        await sms.send(mobile, `您的${SCENE_TEXT[scene]}验证码是 ${code}，${VERIFY_CODE_RULES.ttlSeconds / 60} 分钟内有效。请勿告诉他人。`);
      } catch (error) {
        // A code that never reached the person must not count against their limits.
        await db.deleteFrom('platform.verify_codes').where('id', '=', row.id).execute();
        if (addressKey) await uncount(db, addressKey);
        log.warn({ err: error, mobile }, 'SMS send failed');
        throw new AppError('SmsSendFailed');
      }
      return { expiresIn: VERIFY_CODE_RULES.ttlSeconds, resendAfter: VERIFY_CODE_RULES.resendSeconds };
    },

    async consume(mobile, scene, code) {
      // The newest live code takes the try. Counting the try and spending the code are one statement: parallel
      // tries count one each, a code stops at maxAttempts, and a right code signs in once (docs/decisions/0027).
      const newest = db
        .selectFrom('platform.verify_codes')
        .select('id')
        .where('mobile', '=', mobile)
        .where('scene', '=', scene)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .orderBy('created_time', 'desc')
        .orderBy('id', 'desc')
        .limit(1);
      const row = await db
        .updateTable('platform.verify_codes')
        .set({
          attempts: sql`attempts + 1`,
          consumed_at: sql`case when code_hash = ${hashVerifyCode(mobile, code)} then now() else null end`,
        })
        .where('id', '=', newest)
        .where('consumed_at', 'is', null)
        .where('attempts', '<', VERIFY_CODE_RULES.maxAttempts)
        .returning(sql<boolean>`consumed_at is not null`.as('ok'))
        .executeTakeFirst();
      const ok = !!row?.ok;
      if (!ok) throw new AppError('VerifyCodeInvalid');
    },
  };
}

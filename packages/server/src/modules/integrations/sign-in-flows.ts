import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import type { ErrorName } from '@tritium/shared';

// A started outside sign-in (SSO or a chat platform's QR login): one row of platform.sign_in_flows keyed by its
// random state, used once. The state travels to the provider and back; a second use, or one after the flow's time,
// is refused.

export interface NewFlow {
  /** The key, when the protocol makes it (a SAML request's ID); else a random one. */
  state?: string;
  engineCode: string;
  provider: string;
  minutes: number;
  returnTo: string | null;
  nonce?: string;
  codeVerifier?: string;
  payload?: Record<string, unknown>;
}

/** Stores a flow and answers its state. */
export async function createSignInFlow(db: Db, flow: NewFlow, now = new Date()): Promise<string> {
  const state = flow.state ?? randomBytes(24).toString('base64url');
  await db
    .insertInto('platform.sign_in_flows')
    .values({
      state,
      engine_code: flow.engineCode,
      provider: flow.provider,
      nonce: flow.nonce ?? randomBytes(24).toString('base64url'),
      code_verifier: flow.codeVerifier ?? '',
      return_to: flow.returnTo,
      payload: flow.payload ? JSON.stringify(flow.payload) : null,
      expires_at: new Date(now.getTime() + flow.minutes * 60_000),
    })
    .execute();
  return state;
}

/**
 * Claims the flow of `state` once: unknown, of another provider or already used is `invalid`, past its time
 * `expired`. The statement that marks it used is the one that decides, so two callbacks with one state cannot both pass.
 */
export function claimSignInFlow(db: Db, state: string, provider: string, errors: { invalid: ErrorName; expired: ErrorName }, now = new Date(), engineCode?: string) {
  return peekSignInFlow(db, state, provider, errors, now, true, engineCode);
}

/**
 * The flow of `state`, still unused and in time; `claim` marks it used in the same statement. With `engineCode`, a
 * flow of another engine is as unknown (and stays unused).
 */
export async function peekSignInFlow(db: Db, state: string, provider: string, errors: { invalid: ErrorName; expired: ErrorName }, now = new Date(), claim = false, engineCode?: string) {
  if (!claim) {
    const row = await db.selectFrom('platform.sign_in_flows').selectAll().where('state', '=', state).where('provider', '=', provider).where('used_time', 'is', null).executeTakeFirst();
    if (!row) throw new AppError(errors.invalid);
    if (row.expires_at.getTime() <= now.getTime()) throw new AppError(errors.expired);
    return row;
  }
  const claimed = await db
    .updateTable('platform.sign_in_flows')
    .set({ used_time: now })
    .where('state', '=', state)
    .where('provider', '=', provider)
    .where('used_time', 'is', null)
    .$if(engineCode !== undefined, (q) => q.where('engine_code', '=', engineCode!))
    .returningAll()
    .executeTakeFirst();
  if (!claimed) throw new AppError(errors.invalid);
  if (claimed.expires_at.getTime() <= now.getTime()) throw new AppError(errors.expired);
  return claimed;
}

/**
 * The browser key of a sign-in (decisions 0087, 0097): the start answers a random key only the asking tab keeps, and
 * the flow keeps its hash; the answer is taken only with the key, so that one handed to another browser is refused.
 */
export const browserKeyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** Whether `key` is the one whose hash the flow kept (compared in constant time); false when either is missing. */
export function sameBrowserKey(keyHash: string | undefined, key: string | undefined): boolean {
  if (!keyHash || !key) return false;
  const expected = Buffer.from(keyHash, 'hex');
  const given = Buffer.from(browserKeyHash(key), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, FIXED_CODE, forgetRecentCodes, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { RATE_LIMITS } from '../../lib/route-types.ts';
import { PASSWORD_LOCK } from './sign-in.service.ts';
import { VERIFY_CODE_RULES } from './verify-code.service.ts';

// test-databases: both — counters that change atomically under parallel requests (docs/testing.md "Runs on both databases").

// Counters that guard access, hit by many requests at the same moment (issue 17): every request below is in flight
// together (Promise.all of app.inject; on PostgreSQL they run on separate pool connections), and the counters must
// end exactly where the same requests sent one after another would leave them. On PGlite the database serialises
// statements, so the PostgreSQL run is the one that proves the statements are atomic.

let t: TestApp;
let limited: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The same database behind an app with the per-address limits on.
  limited = await createTestApp({ database: t.database, config: { rateLimit: true } });
});
afterAll(async () => {
  await limited.close();
  await t.close();
});

const login = (mobile: string, password: string) => call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile, password } });
const codeLogin = (mobile: string, code: string) => call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile, code } });
const send = (app: TestApp['app'], mobile: string, scene: string, remoteAddress?: string) =>
  app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene }, ...(remoteAddress ? { remoteAddress } : {}) }).then((r) => ({ status: r.statusCode, body: r.json() }));
const inParallel = <T>(n: number, one: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => one(i)));
const tally = (codes: unknown[]) => codes.reduce<Record<string, number>>((acc, c) => ({ ...acc, [String(c)]: (acc[String(c)] ?? 0) + 1 }), {});

describe.each([10, 50])('%i requests at once', (n) => {
  it('wrong passwords lock the account at exactly the threshold; the right password is then refused', async () => {
    const p = await registerPerson(t.app);
    const answers = await inParallel(n, () => login(p.mobile, 'Wrong0pass'));
    const before = PASSWORD_LOCK.maxFailures - 1;
    expect(tally(answers.map((a) => a.body.errorCode))).toEqual({ 201201: before, 201202: n - before });
    // Each counted failure saw its own count: remaining attempts 4, 3, 2, 1 once each.
    const remaining = answers.filter((a) => a.body.errorCode === 201201).map((a) => a.body.detail.remainingAttempts);
    expect(remaining.sort()).toEqual(Array.from({ length: before }, (_, i) => i + 1));
    const account = await t.database.db.selectFrom('platform.accounts').select(['locked_until']).where('mobile', '=', p.mobile).executeTakeFirstOrThrow();
    expect(account.locked_until!.getTime()).toBeGreaterThan(Date.now());
    const right = await login(p.mobile, p.password);
    expect(right.body).toMatchObject({ successful: false, errorCode: 201202 });
  });

  it('right passwords sent among wrong ones never sign in once the lock is taken', async () => {
    const p = await registerPerson(t.app);
    const answers = await inParallel(n, (i) => login(p.mobile, i % 5 === 4 ? p.password : 'Wrong0pass'));
    const codes = answers.map((a) => (a.body.successful ? 'ok' : a.body.errorCode));
    expect(codes.every((c) => c === 'ok' || c === 201201 || c === 201202)).toBe(true);
    // A right password clears the count, so the lock may or may not have been reached; what must hold: no more
    // wrong answers than failures allowed between two clears, and once locked, the right password is refused.
    const locked = await t.database.db.selectFrom('platform.accounts').select(['locked_until']).where('mobile', '=', p.mobile).executeTakeFirstOrThrow();
    if (locked.locked_until && locked.locked_until.getTime() > Date.now()) {
      expect((await login(p.mobile, p.password)).body.errorCode).toBe(201202);
    } else {
      expect((await login(p.mobile, p.password)).body.successful).toBe(true);
    }
  });

  it('wrong codes spend the code after exactly the allowed tries; the right code is then refused', async () => {
    const p = await registerPerson(t.app);
    await forgetRecentCodes(t.database, p.mobile);
    expect((await send(t.app, p.mobile, 'login')).body.successful).toBe(true);
    const answers = await inParallel(n, () => codeLogin(p.mobile, '000000'));
    expect(tally(answers.map((a) => a.body.errorCode))).toEqual({ 201101: n });
    const row = await t.database.db.selectFrom('platform.verify_codes').select(['attempts', 'consumed_at']).where('mobile', '=', p.mobile).where('scene', '=', 'login').executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: VERIFY_CODE_RULES.maxAttempts, consumed_at: null });
    expect((await codeLogin(p.mobile, FIXED_CODE)).body.errorCode).toBe(201101);
  });

  it('one right code signs in once, however many requests carry it', async () => {
    const p = await registerPerson(t.app);
    await forgetRecentCodes(t.database, p.mobile);
    expect((await send(t.app, p.mobile, 'login')).body.successful).toBe(true);
    const answers = await inParallel(n, () => codeLogin(p.mobile, FIXED_CODE));
    expect(tally(answers.map((a) => (a.body.successful ? 'ok' : a.body.errorCode)))).toEqual({ ok: 1, 201101: n - 1 });
  });

  it('code requests for one number send one code per resend interval', async () => {
    const mobile = uniqueMobile();
    const answers = await inParallel(n, () => send(t.app, mobile, 'register'));
    expect(tally(answers.map((a) => (a.body.successful ? 'ok' : a.body.errorCode)))).toEqual({ ok: 1, 201102: n - 1 });
    const rows = await t.database.db.selectFrom('platform.verify_codes').select('id').where('mobile', '=', mobile).execute();
    expect(rows).toHaveLength(1);
  });

  it('code requests for one number stop at exactly the daily limit', async () => {
    const mobile = uniqueMobile();
    // All but one of the day's codes were sent earlier today (outside the resend interval).
    const earlier = new Date(Date.now() - 3600_000);
    await t.database.db
      .insertInto('platform.verify_codes')
      .values(Array.from({ length: VERIFY_CODE_RULES.perMobilePerDay - 1 }, () => ({ mobile, scene: 'bind', code_hash: 'x', expires_at: earlier, created_time: earlier })))
      .execute();
    const scenes = ['register', 'bind', 'login', 'reset'];
    await t.database.db.insertInto('platform.accounts').values({ id: `acct-${mobile}`, mobile, name: '甲', password_hash: null, state: 'active', locked_until: null, last_engine_code: null }).execute();
    const answers = await inParallel(n, (i) => send(t.app, mobile, scenes[i % scenes.length]!));
    expect(tally(answers.map((a) => (a.body.successful ? 'ok' : a.body.errorCode)))).toEqual({ ok: 1, 201102: n - 1 });
    const count = await t.database.db.selectFrom('platform.verify_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('mobile', '=', mobile).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(VERIFY_CODE_RULES.perMobilePerDay);
  });

  it('code requests from one address stop at exactly the per-address limit (429, 100429)', async () => {
    const address = `10.17.${n}.${process.pid % 250}`;
    const answers = await inParallel(n, () => send(limited.app, uniqueMobile(), 'register', address));
    const max = RATE_LIMITS.sendCode.max;
    expect(tally(answers.map((a) => (a.body.successful ? 'ok' : `${a.status}/${a.body.errorCode}`)))).toEqual(n > max ? { ok: max, '429/100429': n - max } : { ok: n });
    // Another address has its own count.
    expect((await send(limited.app, uniqueMobile(), 'register', `10.18.${n}.1`)).body.successful).toBe(true);
    if (n <= max) {
      const more = await inParallel(n, () => send(limited.app, uniqueMobile(), 'register', address));
      expect(more.filter((a) => a.body.successful)).toHaveLength(max - n);
    }
  });
});

describe('token refresh checks the person again', () => {
  const refresh = (token: string, engineCode?: string) => call(t.app, 'GET', '/v1/token/refresh', { token, ...(engineCode ? { engineCode } : {}) });

  it('refuses a user disabled in the engine the client works in', async () => {
    const p = await registerPerson(t.app);
    expect((await refresh(p.token, p.engineCode)).body.successful).toBe(true);
    const q = await registerPerson(t.app);
    await t.database.db.withSchema(`e_${q.engineCode}`).updateTable('org_users' as never).set({ state: 'disabled' } as never).execute();
    const res = await refresh(q.token, q.engineCode);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ successful: false, errorCode: 200502 });
    // Without the header the person's engines are looked at as a sign-in does: none usable, refused.
    expect((await refresh(q.token)).body.errorCode).toBe(200502);
  });

  it('refuses a user removed from the engine the client works in', async () => {
    const p = await registerPerson(t.app);
    await t.database.db.deleteFrom('platform.memberships').where('engine_code', '=', p.engineCode).execute();
    const res = await refresh(p.token, p.engineCode);
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(200603);
  });

  it('refuses a disabled account (401)', async () => {
    const p = await registerPerson(t.app);
    await t.database.db.updateTable('platform.accounts').set({ state: 'disabled' }).where('mobile', '=', p.mobile).execute();
    const res = await refresh(p.token, p.engineCode);
    expect(res.status).toBe(401);
    expect(res.body.successful).toBe(false);
  });
});

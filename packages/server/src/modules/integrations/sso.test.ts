// test-databases: both — one-use flow claims (update … returning), identity binding and user creation in transactions
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, companyIdOf, orgClient, type Person } from '../../../test/org-helpers.ts';
import { startOidcIssuer, type OidcIssuer } from '../../../test/oidc-issuer.ts';
import { engineDb } from '../../db/database.ts';

// Enterprise single sign-on against a local OpenID Connect issuer that speaks discovery, authorize, token (PKCE),
// JWKS and userinfo with RS256-signed id_tokens: the whole protocol, the settings' secrecy, and the refusals.

const CALLBACK = 'http://tritium.test/entry/login/sso/callback';

describe('enterprise single sign-on (OpenID Connect)', () => {
  let t: TestApp;
  let admin: Person;
  let issuer: OidcIssuer;
  let companyId: string;

  const settings = (over: Record<string, unknown> = {}) => ({
    enabled: true,
    issuerUrl: issuer.url,
    clientId: issuer.clientId,
    clientSecret: issuer.clientSecret,
    scopes: 'profile email phone',
    matchBy: 'mobile',
    claim: '',
    createUsers: false,
    callbackUrl: CALLBACK,
    ...over,
  });
  const save = (over: Record<string, unknown> = {}, who: Person = admin) => orgClient(t.app, who).post('/v1/sysintergration/sso/setting', settings(over));

  const start = (engineCode: string, redirectUrl?: string) =>
    call(t.app, 'GET', '/v1/login/sso', { query: { engineCode, ...(redirectUrl === undefined ? {} : { redirectUrl }) } });

  /** Follows the issuer's authorize page as the browser would; answers the callback's query. */
  async function authorize(authorizeUrl: string): Promise<Record<string, string>> {
    const res = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    return Object.fromEntries(back.searchParams);
  }
  const complete = (query: Record<string, string>) => call(t.app, 'GET', '/v1/login/sso', { query });

  async function signIn(engineCode: string, person: Record<string, unknown> & { sub: string }, redirectUrl?: string) {
    issuer.person = person;
    const started = await start(engineCode, redirectUrl);
    expect(started.body.successful, JSON.stringify(started.body)).toBe(true);
    // The tab that started the sign-in hands the issuer's answer over with its browser key.
    const query: Record<string, string> = { ...(await authorize(started.body.data.redirectUrl)), key: started.body.data.browserKey as string };
    return { query, res: await complete(query) };
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerPerson(t.app, { userName: '管理员甲' });
    companyId = await companyIdOf(t, admin.engineCode);
    issuer = await startOidcIssuer({ redirectUris: [CALLBACK] });
    await save();
  });
  afterAll(async () => {
    await issuer?.close();
    await t?.close();
  });

  it('keeps the client secret write-only and sealed at rest', async () => {
    const view = await orgClient(t.app, admin).get('/v1/sysintergration/sso/setting/load');
    expect(view).toMatchObject({ configured: true, enabled: true, issuerUrl: issuer.url, clientId: issuer.clientId, hasClientSecret: true, callbackUrl: CALLBACK });
    expect(JSON.stringify(view)).not.toContain(issuer.clientSecret);
    expect(view.suggestedCallbackUrl).toMatch(/\/entry\/login\/sso\/callback$/);
    const row = await engineDb(t.database.db, admin.engineCode).selectFrom('sign_in_providers').selectAll().where('provider', '=', 'oidc').executeTakeFirstOrThrow();
    expect(row.secrets).toMatch(/^v1\./);
    expect(`${row.secrets}${JSON.stringify(row.settings)}`).not.toContain(issuer.clientSecret);
    // Saving without a secret keeps the stored one: sign-in still authenticates to the token endpoint.
    const kept = await save({ clientSecret: undefined });
    expect(kept.hasClientSecret).toBe(true);
    const pub = await call(t.app, 'GET', '/v1/sysintergration/sso/setting', { query: { engineCode: admin.engineCode } });
    expect(pub.body.data).toEqual({ enabled: true });
  });

  it('a member cannot read or change the settings', async () => {
    const member = await addMember(t, admin, { name: '普通成员' });
    const res = await orgClient(t.app, member).raw('GET', '/v1/sysintergration/sso/setting/load');
    expect(res.body.successful).toBe(false);
    expect(res.status).toBe(403);
  });

  it('signs in the user matched by mobile with PKCE, state and nonce, and binds the identity', async () => {
    const member = await addMember(t, admin, { name: '李四' });
    const { query, res } = await signIn(admin.engineCode, { sub: 'lisi', name: '李四', phone_number: `+86 ${member.mobile}` }, '/workbench/app?x=1');
    expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data).toMatchObject({ engineCode: admin.engineCode, returnTo: '/workbench/app?x=1' });
    const sent = issuer.authorizeRequests.at(-1)!.searchParams;
    expect(sent.get('redirect_uri')).toBe(CALLBACK);
    expect(sent.get('code_challenge_method')).toBe('S256');
    expect(sent.get('state')).toBe(query.state);
    expect(sent.get('nonce')?.length).toBeGreaterThan(20);
    const info = await call(t.app, 'GET', '/v1/user/info', { token: res.body.data.accessToken, engineCode: admin.engineCode });
    expect(info.status).toBe(200);
    expect(JSON.stringify(info.body.data)).toContain('李四');
    // The second time the identity finds the same user even when the provider's number changed.
    const again = await signIn(admin.engineCode, { sub: 'lisi', name: '李四', phone_number: uniqueMobile() });
    expect(again.res.body.data?.engineCode).toBe(admin.engineCode);
    const bound = await engineDb(t.database.db, admin.engineCode).selectFrom('org_user_identities').selectAll().where('subject', '=', `${issuer.url}|lisi`).execute();
    expect(bound).toEqual([expect.objectContaining({ user_id: member.userId })]);
  });

  it('refuses a replayed state (208002) and a replayed id_token whose nonce belongs to another sign-in (208004)', async () => {
    const member = await addMember(t, admin, { name: '王五' });
    const first = await signIn(admin.engineCode, { sub: 'wangwu', phone_number: member.mobile });
    expect(first.res.body.successful).toBe(true);
    const replay = await complete(first.query);
    expect(replay.body.errorCode).toBe(208002);
    // A token endpoint answering with an id_token issued before: right signature and issuer, another nonce.
    issuer.issued.length = 0;
    const fresh = await signIn(admin.engineCode, { sub: 'wangwu', phone_number: member.mobile });
    expect(fresh.res.body.successful).toBe(true);
    issuer.replayFirstIdToken = true;
    try {
      const replayed = await signIn(admin.engineCode, { sub: 'wangwu', phone_number: member.mobile });
      expect(replayed.res.body.errorCode).toBe(208004);
      expect(replayed.res.body.detail?.reason ?? JSON.stringify(replayed.res.body)).toMatch(/nonce/i);
    } finally {
      issuer.replayFirstIdToken = false;
    }
  });

  it('refuses the issuer\'s answer in a browser that did not start the sign-in (208002), and it cannot be used after', async () => {
    const member = await addMember(t, admin, { name: '钱七' });
    issuer.person = { sub: 'qianqi', phone_number: member.mobile };
    const started = await start(admin.engineCode);
    expect(started.body.data.browserKey).toMatch(/^[\w-]{32}$/);
    const query = await authorize(started.body.data.redirectUrl);
    // A callback address sent to someone else: their browser has no key, or another sign-in's.
    const elsewhere = await complete(query);
    expect(elsewhere.body).toMatchObject({ errorCode: 208002, detail: { reason: 'another browser started this sign-in' } });
    expect((await complete({ ...query, key: started.body.data.browserKey })).body.errorCode).toBe(208002);
    const other = await start(admin.engineCode);
    const otherQuery = await authorize(other.body.data.redirectUrl);
    expect((await complete({ ...otherQuery, key: started.body.data.browserKey })).body.errorCode).toBe(208002);
    const bound = await engineDb(t.database.db, admin.engineCode).selectFrom('org_user_identities').select('user_id').where('subject', '=', `${issuer.url}|qianqi`).execute();
    expect(bound).toEqual([]);
  });

  it('refuses an expired state (208003), a wrong issuer (208004) and a state it never issued (208002)', async () => {
    const member = await addMember(t, admin, { name: '赵六' });
    issuer.person = { sub: 'zhaoliu', phone_number: member.mobile };
    const started = await start(admin.engineCode);
    const query = await authorize(started.body.data.redirectUrl);
    await t.database.db.updateTable('platform.sign_in_flows').set({ expires_at: new Date(Date.now() - 1000) }).where('state', '=', query.state).execute();
    expect((await complete(query)).body.errorCode).toBe(208003);

    issuer.idTokenIssuer = 'http://127.0.0.1:1/not-the-issuer';
    try {
      expect((await signIn(admin.engineCode, { sub: 'zhaoliu', phone_number: member.mobile })).res.body.errorCode).toBe(208004);
    } finally {
      issuer.idTokenIssuer = undefined;
    }
    expect((await complete({ code: 'x', state: 'never-issued-state' })).body.errorCode).toBe(208002);

    // An issuer address without a discovery document of its own is refused before anything is sent.
    await save({ issuerUrl: `${issuer.url}/tenant-b` });
    try {
      expect((await start(admin.engineCode)).body.errorCode).toBe(208004);
    } finally {
      await save();
    }
  });

  it('refuses an unknown person while creation is off (208005) and creates them when it is on', async () => {
    const mobile = uniqueMobile();
    const off = await signIn(admin.engineCode, { sub: 'newcomer', name: '新同事', phone_number: mobile });
    expect(off.res.body.errorCode).toBe(208005);
    await save({ createUsers: true });
    try {
      const on = await signIn(admin.engineCode, { sub: 'newcomer', name: '新同事', phone_number: mobile, email: 'New@Example.com' });
      expect(on.res.body.successful, JSON.stringify(on.res.body)).toBe(true);
      const user = await engineDb(t.database.db, admin.engineCode).selectFrom('org_users').selectAll().where('mobile', '=', mobile).executeTakeFirstOrThrow();
      expect(user).toMatchObject({ name: '新同事', main_department_id: companyId, email: 'New@Example.com' });
      expect(user.account_id).not.toBeNull();
      // Without a mobile number nobody can be created.
      expect((await signIn(admin.engineCode, { sub: 'no-phone', name: '无号码' })).res.body.errorCode).toBe(208005);
    } finally {
      await save();
    }
  });

  it('matches by e-mail or employee number when so configured', async () => {
    const member = await addMember(t, admin, { name: '钱七' });
    const edb = engineDb(t.database.db, admin.engineCode);
    await edb.updateTable('org_users').set({ email: 'qian.qi@example.com', employee_no: 'E-1007' }).where('id', '=', member.userId).execute();
    await save({ matchBy: 'email' });
    try {
      const byMail = await signIn(admin.engineCode, { sub: 'qq-mail', email: 'Qian.Qi@example.com' });
      expect(byMail.res.body.successful, JSON.stringify(byMail.res.body)).toBe(true);
      await save({ matchBy: 'employeeNo', claim: 'staff_id' });
      const byNumber = await signIn(admin.engineCode, { sub: 'qq-number', staff_id: 'E-1007' });
      expect(byNumber.res.body.successful, JSON.stringify(byNumber.res.body)).toBe(true);
      expect((await signIn(admin.engineCode, { sub: 'qq-other', staff_id: 'E-9999' })).res.body.errorCode).toBe(208005);
      const subjects = await edb.selectFrom('org_user_identities').select('subject').where('user_id', '=', member.userId).orderBy('subject').execute();
      expect(subjects.map((s) => s.subject)).toEqual([`${issuer.url}|qq-mail`, `${issuer.url}|qq-number`]);
    } finally {
      await save();
    }
  });

  it('sends the browser back only to configured addresses (208006 otherwise)', async () => {
    for (const bad of ['https://evil.example/steal', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      expect((await start(admin.engineCode, bad)).body.errorCode, bad).toBe(208006);
    }
    const same = await start(admin.engineCode, 'http://tritium.test/form/abc');
    expect(same.body.successful).toBe(true);
    const flow = await t.database.db.selectFrom('platform.sign_in_flows').select('return_to').orderBy('created_time', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(flow.return_to).toBe('/form/abc');
    // The issuer is told only the saved callback address, whatever the request's host says.
    const spoofed = await call(t.app, 'GET', '/v1/login/sso', { query: { engineCode: admin.engineCode }, headers: { host: 'evil.example' } });
    expect(new URL(spoofed.body.data.redirectUrl).searchParams.get('redirect_uri')).toBe(CALLBACK);
  });

  it("a token from engine A's single sign-on does not open engine B, even for a member of both", async () => {
    // The person has an engine of their own (B) and is a user of A too.
    const person = await registerPerson(t.app, { userName: '孙八', engineName: '孙八的公司' });
    await orgClient(t.app, admin).post('/v1/org/user/create', { name: '孙八', mobile: person.mobile, departmentIds: [companyId] });
    const { res } = await signIn(admin.engineCode, { sub: 'sunba', phone_number: person.mobile });
    expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
    const token = res.body.data.accessToken as string;
    const other = person.engineCode;
    const member = person;
    // The member's own password session opens B; the SSO session of A does not.
    expect((await call(t.app, 'GET', '/v1/user/info', { token: member.token, engineCode: other })).status).toBe(200);
    const inB = await call(t.app, 'GET', '/v1/user/info', { token, engineCode: other });
    expect(inB.status).toBe(403);
    expect(inB.body.errorCode).toBe(100405);
    expect((await call(t.app, 'GET', '/v1/user/info', { token, engineCode: admin.engineCode })).status).toBe(200);
    expect((await call(t.app, 'GET', '/v1/user/info', { token })).status).toBe(200);
    // Nor can it be renewed into B.
    expect((await call(t.app, 'GET', '/v1/token/refresh', { token, engineCode: other })).status).toBe(403);
    // The engine switcher offers A alone to this session (the password session sees both), and switching to B fails.
    const listed = async (tok: string) => ((await call(t.app, 'GET', '/v1/engine/connected', { token: tok })).body.data.list as { engineCode: string }[]).map((e) => e.engineCode);
    expect(await listed(token)).toEqual([admin.engineCode]);
    expect((await listed(member.token)).sort()).toEqual([admin.engineCode, other].sort());
    expect((await call(t.app, 'PUT', '/v1/engine/current', { token, body: { engineCode: other } })).body.errorCode).toBe(100405);
  });

  it('says 208001 while single sign-on is not configured or switched off', async () => {
    const other = await registerPerson(t.app, { userName: '另一家' });
    expect((await start(other.engineCode)).body.errorCode).toBe(208001);
    expect((await call(t.app, 'GET', '/v1/login/sso')).body.errorCode).toBe(208001);
    await save({ enabled: false });
    try {
      expect((await start(admin.engineCode)).body.errorCode).toBe(208001);
      expect((await call(t.app, 'GET', '/v1/sysintergration/sso/setting', { query: { engineCode: admin.engineCode } })).body.data).toEqual({ enabled: false });
    } finally {
      await save();
    }
  });

  it('answers an error the issuer sent back (208004) and uses the state up', async () => {
    issuer.person = { sub: 'x' };
    const started = await start(admin.engineCode);
    const state = new URL(started.body.data.redirectUrl).searchParams.get('state')!;
    expect((await complete({ error: 'access_denied', state })).body.errorCode).toBe(208004);
    expect((await complete({ code: 'c', state })).body.errorCode).toBe(208002);
  });

  it('rejects bad input from the catalogue, never a 5xx', async () => {
    const bad = await orgClient(t.app, admin).raw('POST', '/v1/sysintergration/sso/setting', { ...settings(), issuerUrl: 'ftp://x', matchBy: 'nickname' });
    expect(bad.status).toBe(200);
    expect(bad.body.errorCode).toBe(777);
    expect((await start('BAD CODE!')).body.errorCode).toBe(777);
  });
});

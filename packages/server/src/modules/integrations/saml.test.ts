// test-databases: both — one-use request and handoff claims (update … returning), identity binding and user creation
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, companyIdOf, orgClient, type Person } from '../../../test/org-helpers.ts';
import { makeKeyPair, readAuthnRequest, startSamlIdp, type PendingRequest, type SamlIdp } from '../../../test/saml-idp.ts';
import { engineDb } from '../../db/database.ts';

// Enterprise single sign-on by SAML 2.0 (decision 0087) against a local identity provider that reads the
// HTTP-Redirect AuthnRequest and signs Responses with its own key and certificate: the settings, the metadata, the
// whole flow through the assertion consumer, and every refusal — signature, audience, issuer, time, replay, another
// engine's consumer, unknown people, foreign redirects.

const SITE = 'http://tritium.test';
const CALLBACK = `${SITE}/entry/login/sso/callback`;

describe('enterprise single sign-on (SAML 2.0)', () => {
  let t: TestApp;
  let admin: Person;
  let idp: SamlIdp;
  let companyId: string;

  const spEntityIdOf = (engineCode: string) => `${SITE}/saml/${engineCode}`;
  const acsOf = (engineCode: string) => `${SITE}/v1/login/sso/saml/${engineCode}/acs`;
  const settings = (engineCode: string, over: Record<string, unknown> = {}, saml: Record<string, unknown> = {}) => ({
    protocol: 'saml',
    enabled: true,
    matchBy: 'mobile',
    claim: '',
    createUsers: false,
    callbackUrl: CALLBACK,
    saml: { entryPoint: idp.ssoUrl, idpCert: idp.cert, idpIssuer: idp.entityId, spEntityId: spEntityIdOf(engineCode), nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', ...saml },
    ...over,
  });
  const save = (over: Record<string, unknown> = {}, saml: Record<string, unknown> = {}, who: Person = admin) => orgClient(t.app, who).post('/v1/sysintergration/sso/setting', settings(who.engineCode, over, saml));

  /** The browser key of the sign-in started last: the test plays one browser. */
  let browserKey = '';

  /** Starts a sign-in and reads the AuthnRequest the browser would carry to the identity provider. */
  async function start(engineCode: string, redirectUrl?: string): Promise<PendingRequest> {
    const started = await call(t.app, 'GET', '/v1/login/sso', { query: { engineCode, ...(redirectUrl ? { redirectUrl } : {}) } });
    expect(started.body.successful, JSON.stringify(started.body)).toBe(true);
    browserKey = started.body.data.browserKey;
    const url = new URL(started.body.data.redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(idp.ssoUrl);
    return readAuthnRequest(url);
  }

  /** Posts a Response to an engine's consumer as the browser would; answers the page it sends the browser to. */
  async function post(engineCode: string, samlResponse: string, relayState?: string): Promise<string> {
    const form = new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState ? { RelayState: relayState } : {}) });
    const res = await t.app.inject({ method: 'POST', url: `/v1/login/sso/saml/${engineCode}/acs`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
    expect(res.statusCode, res.body).toBe(303);
    return res.headers.location as string;
  }

  /** The sign-in page's half: redeems the code the consumer handed over, with the browser's key. */
  async function redeem(location: string, key = browserKey) {
    const url = new URL(location, SITE);
    expect(url.origin + url.pathname).toBe(CALLBACK);
    return call(t.app, 'GET', '/v1/login/sso', { query: { saml: url.searchParams.get('saml')!, ...(key ? { key } : {}) } });
  }

  async function signIn(engineCode: string, person: SamlIdp['person'], redirectUrl?: string) {
    idp.person = person;
    const request = await start(engineCode, redirectUrl);
    return { request, res: await redeem(await post(engineCode, idp.answer(request))) };
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerPerson(t.app, { userName: '管理员甲' });
    companyId = await companyIdOf(t, admin.engineCode);
    idp = await startSamlIdp();
    await save();
  });
  afterAll(async () => {
    await idp?.close();
    await t?.close();
  });

  it('shows the settings with the addresses to register, keeps the other protocol, and refuses an unreadable certificate', async () => {
    const view = await orgClient(t.app, admin).get('/v1/sysintergration/sso/setting/load');
    expect(view).toMatchObject({
      protocol: 'saml',
      enabled: true,
      saml: { entryPoint: idp.ssoUrl, idpIssuer: idp.entityId, spEntityId: spEntityIdOf(admin.engineCode) },
      samlAcsUrl: acsOf(admin.engineCode),
      samlMetadataUrl: `${SITE}/v1/login/sso/saml/${admin.engineCode}/metadata`,
    });
    const bad = await orgClient(t.app, admin).raw('POST', '/v1/sysintergration/sso/setting', settings(admin.engineCode, {}, { idpCert: '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----' }));
    expect(bad.body.errorCode).toBe(777);
    expect(JSON.stringify(bad.body.detail)).toContain('saml.idpCert');
    const missing = await orgClient(t.app, admin).raw('POST', '/v1/sysintergration/sso/setting', { ...settings(admin.engineCode), saml: undefined });
    expect(missing.body.errorCode).toBe(777);
    expect((await orgClient(t.app, admin).get('/v1/sysintergration/sso/setting/load')).saml.idpCert).toBe(idp.cert.trim());
    const member = await addMember(t, admin, { name: '普通成员' });
    expect((await orgClient(t.app, member).raw('GET', '/v1/sysintergration/sso/setting/load')).status).toBe(403);
  });

  it('publishes this platform\'s metadata for the identity provider', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/login/sso/saml/${admin.engineCode}/metadata` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.body).toContain(`entityID="${spEntityIdOf(admin.engineCode)}"`);
    expect(res.body).toContain(`Location="${acsOf(admin.engineCode)}"`);
    expect(res.body).toContain('WantAssertionsSigned="true"');
    const other = await registerPerson(t.app, { userName: '未配置' });
    expect((await call(t.app, 'GET', `/v1/login/sso/saml/${other.engineCode}/metadata`)).body.errorCode).toBe(208001);
  });

  it('signs in the member matched by the mobile attribute, once, in the engine of the request', async () => {
    const member = await addMember(t, admin, { name: '李四' });
    const { request, res } = await signIn(admin.engineCode, { nameId: 'lisi@corp', attributes: { mobile: `+86 ${member.mobile}`, displayName: '李四' } }, '/workbench/app?x=1');
    expect(request).toMatchObject({ acsUrl: acsOf(admin.engineCode), spEntityId: spEntityIdOf(admin.engineCode), nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified' });
    expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data).toMatchObject({ engineCode: admin.engineCode, returnTo: '/workbench/app?x=1' });
    const info = await call(t.app, 'GET', '/v1/user/info', { token: res.body.data.accessToken, engineCode: admin.engineCode });
    expect(JSON.stringify(info.body.data)).toContain('李四');
    const bound = await engineDb(t.database.db, admin.engineCode).selectFrom('org_user_identities').selectAll().where('provider', '=', 'saml').where('subject', '=', `${idp.entityId}|lisi@corp`).execute();
    expect(bound).toEqual([expect.objectContaining({ user_id: member.userId })]);
    // Next time the bound NameID finds the same person without the attribute.
    expect((await signIn(admin.engineCode, { nameId: 'lisi@corp' })).res.body.data?.engineCode).toBe(admin.engineCode);
  });

  it('refuses a tampered, an unsigned and a foreign-signed assertion (208004) and leaves the request pending', async () => {
    const member = await addMember(t, admin, { name: '王五' });
    idp.person = { nameId: 'wangwu', attributes: { mobile: member.mobile } };
    const request = await start(admin.engineCode);
    const tampered = idp.answer(request, { tamper: (xml) => xml.replace('>wangwu<', '>boss<') });
    const other = makeKeyPair('intruder');
    for (const response of [tampered, idp.answer(request, { signed: false }), idp.answer(request, { keyPair: other })]) {
      const refused = await redeem(await post(admin.engineCode, response));
      expect(refused.body.errorCode).toBe(208004);
      expect(refused.body.detail.step).toBe('assertion');
    }
    // None of them used the request up: the genuine answer still signs in.
    expect((await redeem(await post(admin.engineCode, idp.answer(request)))).body.successful).toBe(true);
  });

  it('refuses a wrong audience, a wrong issuer, an expired assertion and another consumer (208004)', async () => {
    const member = await addMember(t, admin, { name: '赵六' });
    idp.person = { nameId: 'zhaoliu', attributes: { mobile: member.mobile } };
    const request = await start(admin.engineCode);
    const cases = [
      idp.answer(request, { audience: 'urn:someone-else' }),
      idp.answer(request, { issuer: 'urn:not-the-idp' }),
      idp.answer(request, { notOnOrAfter: new Date(Date.now() - 10 * 60_000) }),
      idp.answer(request, { acsUrl: `${SITE}/elsewhere` }),
    ];
    for (const response of cases) {
      const refused = await redeem(await post(admin.engineCode, response));
      expect(refused.body.errorCode).toBe(208004);
    }
  });

  it('refuses a replayed answer (208002), a request it never made (208002) and an expired request (208003)', async () => {
    const member = await addMember(t, admin, { name: '孙七' });
    idp.person = { nameId: 'sunqi', attributes: { mobile: member.mobile } };
    const request = await start(admin.engineCode);
    const response = idp.answer(request);
    expect((await redeem(await post(admin.engineCode, response))).body.successful).toBe(true);
    expect((await redeem(await post(admin.engineCode, response))).body.errorCode).toBe(208002);
    expect((await redeem(await post(admin.engineCode, idp.answer({ ...request, id: '_never-requested' })))).body.errorCode).toBe(208002);
    const late = await start(admin.engineCode);
    await t.database.db.updateTable('platform.sign_in_flows').set({ expires_at: new Date(Date.now() - 1000) }).where('state', '=', late.id).execute();
    expect((await redeem(await post(admin.engineCode, idp.answer(late)))).body.errorCode).toBe(208003);
    // The code the consumer hands over works once.
    const once = await post(admin.engineCode, idp.answer(await start(admin.engineCode)));
    expect((await redeem(once)).body.successful).toBe(true);
    expect((await redeem(once)).body.errorCode).toBe(208002);
  });

  it("hands the session only to the browser that started the sign-in (its key), not to one an answer was posted from", async () => {
    const member = await addMember(t, admin, { name: '郑十一' });
    idp.person = { nameId: 'zheng', attributes: { mobile: member.mobile } };
    // Someone starts a sign-in and gets a valid answer for themselves, then has another browser post it: that browser
    // has no key, or its own.
    for (const otherKey of ['', 'the-other-browsers-key']) {
      const request = await start(admin.engineCode);
      expect(browserKey.length).toBeGreaterThan(20);
      expect((await redeem(await post(admin.engineCode, idp.answer(request)), otherKey)).body.errorCode).toBe(208002);
    }
    // The browser that started it, with its key, signs in.
    expect((await redeem(await post(admin.engineCode, idp.answer(await start(admin.engineCode))))).body.successful).toBe(true);
  });

  it('refuses an unknown person while creation is off (208005) and creates them when it is on', async () => {
    const mobile = uniqueMobile();
    expect((await signIn(admin.engineCode, { nameId: 'newcomer', attributes: { mobile, displayName: '新同事' } })).res.body.errorCode).toBe(208005);
    await save({ createUsers: true });
    try {
      const on = await signIn(admin.engineCode, { nameId: 'newcomer', attributes: { mobile, displayName: '新同事', email: 'New@Example.com' } });
      expect(on.res.body.successful, JSON.stringify(on.res.body)).toBe(true);
      const user = await engineDb(t.database.db, admin.engineCode).selectFrom('org_users').selectAll().where('mobile', '=', mobile).executeTakeFirstOrThrow();
      expect(user).toMatchObject({ name: '新同事', main_department_id: companyId, email: 'New@Example.com' });
      expect((await signIn(admin.engineCode, { nameId: 'no-phone', attributes: { displayName: '无号码' } })).res.body.errorCode).toBe(208005);
    } finally {
      await save();
    }
  });

  it('matches by the NameID as e-mail or by a named attribute as employee number', async () => {
    const member = await addMember(t, admin, { name: '钱八' });
    await engineDb(t.database.db, admin.engineCode).updateTable('org_users').set({ email: 'qian.ba@example.com', employee_no: 'E-2008' }).where('id', '=', member.userId).execute();
    await save({ matchBy: 'email', claim: 'NameID' });
    try {
      expect((await signIn(admin.engineCode, { nameId: 'Qian.Ba@example.com' })).res.body.successful).toBe(true);
      await save({ matchBy: 'employeeNo', claim: 'urn:oid:2.16.840.1.113730.3.1.3' });
      expect((await signIn(admin.engineCode, { nameId: 'qb-2', attributes: { 'urn:oid:2.16.840.1.113730.3.1.3': 'E-2008' } })).res.body.successful).toBe(true);
      expect((await signIn(admin.engineCode, { nameId: 'qb-3', attributes: { 'urn:oid:2.16.840.1.113730.3.1.3': 'E-9999' } })).res.body.errorCode).toBe(208005);
      // A transient NameID signs in by the attribute each time and is never bound.
      const transient = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
      expect((await signIn(admin.engineCode, { nameId: '_t1', nameIdFormat: transient, attributes: { 'urn:oid:2.16.840.1.113730.3.1.3': 'E-2008' } })).res.body.successful).toBe(true);
      const subjects = await engineDb(t.database.db, admin.engineCode).selectFrom('org_user_identities').select('subject').where('user_id', '=', member.userId).orderBy('subject').execute();
      expect(subjects.map((row) => row.subject)).toEqual([`${idp.entityId}|Qian.Ba@example.com`, `${idp.entityId}|qb-2`]);
    } finally {
      await save();
    }
  });

  it("engine A's answer is refused at engine B's consumer, and A's session does not open B", async () => {
    // B trusts the same identity provider; even with A's own entity ID (a copied configuration) A's answer fails there.
    const person = await registerPerson(t.app, { userName: '周九', engineName: '周九的公司' });
    await orgClient(t.app, admin).post('/v1/org/user/create', { name: '周九', mobile: person.mobile, departmentIds: [companyId] });
    await save({}, { spEntityId: spEntityIdOf(admin.engineCode) }, person);
    idp.person = { nameId: 'zhoujiu', attributes: { mobile: person.mobile } };
    const request = await start(admin.engineCode);
    // Meant for A's consumer: B's consumer is not its recipient.
    expect((await redeem(await post(person.engineCode, idp.answer(request)))).body.errorCode).toBe(208004);
    // Addressed to B's consumer but answering A's request: no request of B has that ID.
    expect((await redeem(await post(person.engineCode, idp.answer(request, { acsUrl: acsOf(person.engineCode) })))).body.errorCode).toBe(208002);
    // A's request is still pending and signs in to A alone.
    const res = await redeem(await post(admin.engineCode, idp.answer(request)));
    expect(res.body.data?.engineCode, JSON.stringify(res.body)).toBe(admin.engineCode);
    const token = res.body.data.accessToken as string;
    expect((await call(t.app, 'GET', '/v1/user/info', { token, engineCode: person.engineCode })).status).toBe(403);
    expect((await call(t.app, 'GET', '/v1/user/info', { token: person.token, engineCode: person.engineCode })).status).toBe(200);
  });

  it('sends the browser only to this site: foreign return addresses (208006) and RelayState are not followed', async () => {
    for (const bad of ['https://evil.example/steal', '//evil.example/x', 'javascript:alert(1)']) {
      expect((await call(t.app, 'GET', '/v1/login/sso', { query: { engineCode: admin.engineCode, redirectUrl: bad } })).body.errorCode, bad).toBe(208006);
    }
    const member = await addMember(t, admin, { name: '吴十' });
    idp.person = { nameId: 'wushi', attributes: { mobile: member.mobile } };
    const request = await start(admin.engineCode);
    const location = await post(admin.engineCode, idp.answer(request), 'https://evil.example/after');
    expect(location.startsWith('/entry/login/sso/callback?saml=')).toBe(true);
    expect((await redeem(location)).body.data.returnTo).toBeNull();
  });

  it('says 208001 while SAML is not the switched-on protocol, and refuses bad input from the catalogue', async () => {
    await save({ enabled: false });
    try {
      expect((await call(t.app, 'GET', '/v1/login/sso', { query: { engineCode: admin.engineCode } })).body.errorCode).toBe(208001);
      idp.person = { nameId: 'x' };
      const answer = idp.respond({ inResponseTo: '_x', acsUrl: acsOf(admin.engineCode), audience: spEntityIdOf(admin.engineCode), person: idp.person });
      expect((await redeem(await post(admin.engineCode, answer))).body.errorCode).toBe(208001);
    } finally {
      await save();
    }
    const empty = await t.app.inject({ method: 'POST', url: `/v1/login/sso/saml/${admin.engineCode}/acs`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'RelayState=x' });
    expect(empty.json().errorCode).toBe(777);
    const garbage = await redeem(await post(admin.engineCode, Buffer.from('<not-saml/>').toString('base64')));
    expect(garbage.body.errorCode).toBe(208004);
    expect((await call(t.app, 'GET', '/v1/login/sso/saml/BAD!/metadata')).body.errorCode).toBe(777);
    expect((await call(t.app, 'GET', '/v1/login/sso/saml/nosuchengine1/metadata')).body.errorCode).toBe(200601);
  });
});

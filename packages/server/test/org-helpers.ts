import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { call, createTestApp, FIXED_CODE, registerPerson, uniqueMobile, type TestApp } from './helpers.ts';
import { engineDb } from '../src/db/database.ts';

export type Person = Awaited<ReturnType<typeof registerPerson>>;

/** Calls an org endpoint as a person in their engine; fails the test on a business error unless `allowError`. */
export function orgClient(app: FastifyInstance, person: { token: string; engineCode: string }) {
  async function send(method: 'GET' | 'POST', url: string, payload?: unknown) {
    const res =
      method === 'GET'
        ? await call(app, 'GET', url, { token: person.token, engineCode: person.engineCode, query: payload as Record<string, string> | undefined })
        : await call(app, 'POST', url, { token: person.token, engineCode: person.engineCode, body: payload ?? {} });
    return res;
  }
  return {
    /** The whole answer (status and body). */
    raw: send,
    /** The data of a successful answer; throws with the body otherwise. */
    async ok(method: 'GET' | 'POST', url: string, payload?: unknown) {
      const res = await send(method, url, payload);
      if (res.status !== 200 || !res.body?.successful) throw new Error(`${method} ${url} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async post(url: string, payload?: unknown) {
      return this.ok('POST', url, payload);
    },
    async get(url: string, query?: Record<string, string>) {
      return this.ok('GET', url, query);
    },
  };
}
export type OrgClient = ReturnType<typeof orgClient>;

/** The company root id of a person's engine. */
export async function companyIdOf(t: TestApp, engineCode: string): Promise<string> {
  const row = await t.database.db.selectFrom('platform.engines').select('company_id').where('engine_code', '=', engineCode).executeTakeFirstOrThrow();
  return row.company_id;
}

type MemberOptions = { name?: string; authType?: number; departmentIds?: string[] };

/** `admin` adds a user with this mobile number to their engine (by default in the company root). */
async function addUserByMobile(t: TestApp, admin: Person, mobile: string, options: MemberOptions) {
  const departmentIds = options.departmentIds ?? [await companyIdOf(t, admin.engineCode)];
  const user = await orgClient(t.app, admin).post('/v1/org/user/create', { name: options.name ?? '成员', mobile, departmentIds, ...(options.authType ? { authType: options.authType } : {}) });
  return { userId: user.id as string, user };
}

/** A second person who is a member of `admin`'s engine with the given auth type; answers their session there. */
export async function addMember(t: TestApp, admin: Person, options: MemberOptions = {}) {
  const other = await registerPerson(t.app, { userName: options.name ?? '成员', engineName: '成员自己的公司' });
  return { ...other, engineCode: admin.engineCode, ...(await addUserByMobile(t, admin, other.mobile, options)) };
}

/**
 * A member added the way an administrator adds a new colleague: invited by a new mobile number, then signed in by a
 * code, which makes the account (no password, no engine of its own). Cheaper than addMember, whose member registers
 * an engine of their own first (a spare schema's rename, or ~170 DDL statements once the spares are used): for files
 * that need many members and neither their password nor a second engine.
 */
export async function addInvitedMember(t: TestApp, admin: Person, options: MemberOptions = {}) {
  const mobile = uniqueMobile();
  const added = await addUserByMobile(t, admin, mobile, options);
  const sent = await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene: 'login' } });
  if (!sent.body?.successful) throw new Error(`send code failed: ${JSON.stringify(sent.body)}`);
  const login = await call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile, code: FIXED_CODE, engineCode: admin.engineCode } });
  if (!login.body?.successful) throw new Error(`code sign-in failed: ${JSON.stringify(login.body)}`);
  return { mobile, token: login.body.data.accessToken as string, engineCode: admin.engineCode, ...added };
}

/** A member added by addInvitedMember: their session in the administrator's engine, their user and its id. */
export type InvitedMember = Awaited<ReturnType<typeof addInvitedMember>>;

/** Row counts and a checksum of every organisation table of an engine and of the platform's membership tables. */
export async function orgSnapshot(t: TestApp, engineCode: string) {
  const schema = `e_${engineCode}`;
  const out: Record<string, string> = {};
  for (const table of ['org_units', 'org_users', 'org_user_departments', 'org_role_members', 'org_user_posts']) {
    const r = await sql<{ h: string | null; n: number }>`select count(*)::int as n, md5(string_agg(t::text, ',' order by t::text)) as h from ${sql.table(`${schema}.${table}`)} t`.execute(t.database.db);
    out[table] = `${r.rows[0].n}:${r.rows[0].h}`;
  }
  for (const table of ['memberships', 'invitations', 'accounts']) {
    const r = await sql<{ h: string | null; n: number }>`select count(*)::int as n, md5(string_agg(t::text, ',' order by t::text)) as h from ${sql.table(`platform.${table}`)} t`.execute(t.database.db);
    out[table] = `${r.rows[0].n}:${r.rows[0].h}`;
  }
  return out;
}

export { uniqueMobile, engineDb };

/** A fresh app with one registered administrator and their engine: the fixture most org test files start from. */
export async function openOrgEngine(userName: string, engineName: string) {
  const t = await createTestApp();
  const admin = await registerPerson(t.app, { userName, engineName });
  return { t, admin, org: orgClient(t.app, admin), companyId: await companyIdOf(t, admin.engineCode) };
}

/** The client, keeping every answer's JSON in `answers`: to check at the end that no secret left the server. */
export function recordingClient(client: OrgClient, answers: string[]): OrgClient {
  return {
    ...client,
    raw: async (method, url, payload) => {
      const res = await client.raw(method, url, payload);
      answers.push(JSON.stringify(res.body));
      return res;
    },
    ok: async (method, url, payload) => {
      const data = await client.ok(method, url, payload);
      answers.push(JSON.stringify(data));
      return data;
    },
    post(url, payload) {
      return this.ok('POST', url, payload);
    },
    get(url, query) {
      return this.ok('GET', url, query);
    },
  };
}

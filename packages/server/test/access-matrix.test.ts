// test-databases: pglite — who may call what is decided before any SQL could differ between the databases
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from './helpers.ts';
import { addInvitedMember, createApp, grant, nodeClient, type OrgClient, type Person } from './node-helpers.ts';
import { createForm, definition, publish } from './form-helpers.ts';
import { routeAccessOf } from '../src/plugins/auth.ts';
import { ACCESS_POLICY } from './access-policy.ts';
import { EXTERNAL_ROOT_NODE_ID, UserAuthType, type DataScope } from '@tritium/shared/constants/org';
import type { Kysely } from 'kysely';
import { engineDb } from '../src/db/database.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { companyIdOf } from './org-helpers.ts';
import { download, drainJobs, rowsOfXlsx, task } from '../src/modules/data-port/data-port.fixtures.ts';

// The access matrix (issue 19, must show): every route of the app × the kinds of caller, against the policy table
// beside this file. A record of this engine holds two markers — one in a field every member may read, one in a field
// hidden from a permission group — and records seeded for the data scopes hold one marker each, in their title.
// Every route is called, with this engine's ids filled into its parameters, by: anonymous callers with and without a
// share link, another engine's administrator, a member without the app, an external user with the app, a member of
// the group hiding the field, a member with each data scope (view), this app's administrator (with another app's
// ids) and another app's administrator (with this app's ids, a member here). Each has the markers it must never be
// answered, from a brute-force reading of its rights; sanity checks show the markers are there to see. All callers
// share one seeded engine in one process (docs/decisions/0064).

const SEEN = 'MARK-SEEN-7f3a9c';
const HIDDEN = 'MARK-HIDDEN-91c2e4';
const OTHER_APP = 'MARK-OTHERAPP-3b8d20';
const SCOPES: DataScope[] = ['own', 'ownDept', 'relevant', 'ownAndRelevant', 'all', 'ownAndOwnDept'];

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; enum?: unknown[]; minimum?: number; minItems?: number };
type Operation = { parameters?: { in: string; name: string; schema?: Schema }[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };

type Member = Awaited<ReturnType<typeof addInvitedMember>>;
/** What a request needs of a person: their token and the engine they act in. */
type Session = Pick<Person, 'token' | 'engineCode'>;
let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string, objectId: string;
let other: Person, outsider: Member, external: Member, grouped: Member;
/** The ids a route's parameters are filled with: this app's, or another app's for its administrator's round. */
const target = { code: '', objectId: '', appCode: '', token: 'x' };
let otherApp: { appCode: string; code: string; objectId: string };
let appAdmin: Member, otherAppAdmin: Member, shareToken: string, sharedMarker: string;
let D1: string, D2: string;
/**
 * A member per data scope: they view this form's records with it, and on a second form of the app (where they see
 * everything) change and remove with it — one account each for both (registering accounts is the seeding's cost).
 */
let viewers: { scope: DataScope; m: Member }[], editors: { scope: DataScope; m: Member }[];
let editCode: string, editable: Seeded[];
interface Seeded { label: string; marker: string; id: string; owner: string; dept: string; creator: string }
let seeded: Seeded[];
let doc: { paths: Record<string, Record<string, Operation>> };
// Export files land in the app's data folder: one of the test's own.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'access-matrix-'));

beforeAll(async () => {
  const started = Date.now();
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code;
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
    { type: 'textBox', code: 'Secret', options: { displayName: '机密' } },
    { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }] },
  ], { enableDataLog: true }));
  objectId = (await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: SEEN, Secret: HIDDEN }, children: { Items: [{ ItemName: SEEN }] } })).objectId;
  other = await registerPerson(t.app);
  outsider = await addInvitedMember(t, admin, { name: '局外人' });
  grouped = await addInvitedMember(t, admin, { name: '组员' });
  // An external user (a member of a partner under 外部组织) who may open the app but is in no group of the form.
  const partner = (await a.post('/v1/org/department/create', { parentId: EXTERNAL_ROOT_NODE_ID, name: '合作伙伴' })).id;
  external = await addInvitedMember(t, admin, { name: '外部联系人', departmentIds: [partner] });
  await grant(a, appCode, external.userId, 'access');
  await grant(a, appCode, grouped.userId, 'access');
  Object.assign(target, { code, objectId, appCode });
  await seedScopesAndApps();
  await a.post('/v1/form/permission/group/save', { schemaCode: code, group: { name: '看不到机密', members: { users: [grouped.userId, otherAppAdmin.userId] }, actions: ['view', 'export', 'print'], viewScope: 'all', editScope: 'own', fieldRights: { Secret: 'hidden' } } });
  doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  console.info(`access matrix: seeded in ${Date.now() - started} ms`);
});

/**
 * A record written straight into the form's table with the owner, owner department and creator the scopes need (the
 * record made through the API above shows the API's own writes; these only need to exist, and the API's save costs
 * a statement set each).
 */
async function seedRecord(label: string, owner: string, dept: string, creator: string, form = code): Promise<Seeded> {
  const marker = `MARK-R-${form === code ? '' : 'E-'}${label}-5d1e`;
  const id = randomUUID();
  const edb = engineDb(t.database.db, admin.engineCode) as unknown as Kysely<any>;
  await edb.insertInto(`i_${form.toLowerCase()}`).values({ ObjectId: id, Name: marker, Title: marker, Status: 1, OwnerId: owner, OwnerDeptId: dept, CreatedBy: creator, ModifiedBy: creator }).execute();
  return { label, marker, id, owner, dept, creator };
}

async function seedScopesAndApps() {
  const company = await companyIdOf(t, admin.engineCode);
  D1 = (await a.post('/v1/org/department/create', { parentId: company, name: '一部' })).id;
  D2 = (await a.post('/v1/org/department/create', { parentId: company, name: '二部' })).id;
  const member = async (name: string) => {
    const m = await addInvitedMember(t, admin, { name, departmentIds: [D1] });
    await grant(a, appCode, m.userId, 'access');
    return m;
  };
  editCode = (await createForm(a, appCode)).code as string;
  await publish(a, editCode, definition([{ type: 'textBox', code: 'Title', options: { displayName: '标题' } }]));
  viewers = [];
  for (const [i, scope] of SCOPES.entries()) {
    const m = await member(`成员${i}`);
    await a.post('/v1/form/permission/group/save', { schemaCode: code, group: { name: `查看-${scope}`, members: { users: [m.userId] }, actions: ['view'], viewScope: scope, editScope: 'own' } });
    await a.post('/v1/form/permission/group/save', { schemaCode: editCode, group: { name: `修改-${scope}`, members: { users: [m.userId] }, actions: ['view', 'edit', 'delete'], viewScope: 'all', editScope: scope } });
    viewers.push({ scope, m });
  }
  editors = viewers;
  // Per member and form: a record they own, one they created, one of their department; and of no one's scope but 'all'.
  seeded = [];
  editable = [];
  for (const { m } of viewers) {
    for (const [form, into] of [[code, seeded], [editCode, editable]] as const) {
      into.push(await seedRecord(`${m.userId}-own`, m.userId, D2, outsider.userId, form));
      into.push(await seedRecord(`${m.userId}-rel`, outsider.userId, D2, m.userId, form));
      into.push(await seedRecord(`${m.userId}-dept`, outsider.userId, D1, outsider.userId, form));
    }
  }
  editable.push(await seedRecord('none', outsider.userId, D2, outsider.userId, editCode));
  seeded.push(await seedRecord('none', outsider.userId, D2, outsider.userId));
  const shared = await seedRecord('shared', outsider.userId, D2, outsider.userId);
  seeded.push(shared);
  sharedMarker = shared.marker;
  const { share } = await a.post('/v1/form/externalshare/create', { schemaCode: code, objectId: shared.id });
  shareToken = String(share.path).split('/').pop()!;

  // Another app with a record; this app's administrator, and the other app's (a member of this one).
  const otherAppCode = (await createApp(a)).code;
  const otherCode = (await createForm(a, otherAppCode)).code as string;
  await publish(a, otherCode, definition([{ type: 'textBox', code: 'Title', options: { displayName: '标题' } }]));
  const otherObjectId = (await a.post('/v1/form/action/execute', { schemaCode: otherCode, actionCode: 'Submit', values: { Title: OTHER_APP } })).objectId;
  otherApp = { appCode: otherAppCode, code: otherCode, objectId: otherObjectId };
  appAdmin = await addInvitedMember(t, admin, { name: '本应用管理员', authType: UserAuthType.SubAdministrator });
  await grant(a, appCode, appAdmin.userId, 'administrator');
  otherAppAdmin = await addInvitedMember(t, admin, { name: '别的应用管理员', authType: UserAuthType.SubAdministrator });
  await grant(a, otherAppCode, otherAppAdmin.userId, 'administrator');
  await grant(a, appCode, otherAppAdmin.userId, 'access');
}

/** §6 read by hand: may this member (in D1 only) reach this record within this scope? */
function allowed(r: Seeded, userId: string, scope: DataScope): boolean {
  const own = r.owner === userId;
  const ownDept = r.dept === D1;
  const relevant = own || r.creator === userId;
  return { own, ownDept, relevant, ownAndRelevant: own || relevant, all: true, ownAndOwnDept: own || ownDept }[scope];
}
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A value for a parameter named `name`: this engine's ids where the name says which, else the schema's simplest. */
function valueFor(name: string, schema: Schema | undefined, depth = 0): unknown {
  const key = name.toLowerCase();
  if (['schemacode', 'formcode', 'schema_code'].includes(key)) return target.code;
  if (['objectid', 'bizobjectid', 'id', 'recordid'].includes(key)) return target.objectId;
  if (['objectids', 'ids', 'bizobjectids'].includes(key)) return [target.objectId];
  if (key === 'appcode') return target.appCode;
  if (key === 'code') return target.code;
  if (key === 'token') return target.token;
  if (key === 'enginecode') return admin.engineCode;
  if (key === 'pagesize') return 20;
  if (key === 'pageindex') return 0;
  if (!schema || depth > 3) return 'x';
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema;
  if (branch.enum?.length) return branch.enum[0];
  const type = Array.isArray(branch.type) ? branch.type.find((x) => x !== 'null') : branch.type;
  if (type === 'object' || branch.properties) return bodyFor(branch, depth + 1);
  if (type === 'array') return branch.minItems ? [valueFor(name, branch.items, depth + 1)] : [];
  if (type === 'integer' || type === 'number') return branch.minimum ?? 1;
  if (type === 'boolean') return false;
  return 'x';
}

/** The required properties of an object schema, plus any that name this engine's ids. */
function bodyFor(schema: Schema | undefined, depth = 0): Record<string, unknown> {
  const branch = schema?.anyOf?.[0] ?? schema?.oneOf?.[0] ?? schema;
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(branch?.properties ?? {})) {
    const named = valueFor(name, undefined) !== 'x';
    if (branch?.required?.includes(name) || named) out[name] = valueFor(name, child, depth);
  }
  return out;
}

interface Caller {
  who: string;
  headers: Record<string, string>;
  /** The markers this caller must never be answered. */
  never: string[];
  /** The ids the routes are called with: this app's unless said. */
  target?: Partial<typeof target>;
  /**
   * The routes worth calling, by their access: all unless said. A link only changes what routes without a session
   * answer; the engine administrators' routes refuse every member alike (100403, the test above), so one member
   * calling them is enough.
   */
  only?: readonly string[];
  /** Only routes that can name a form, a record or an app, or search (the scope members: elsewhere a member is a member). */
  addressing?: boolean;
}

const ADDRESSING = /^(schemacode|formcode|schema_code|objectids?|bizobjectids?|ids?|recordid|appcode|code|keyword|q|query|search)$/i;
/** Whether a route takes a parameter that names this engine's form, record or app, or a search text. */
function addresses(op: Operation | undefined, path: string): boolean {
  if (/:(\w+)/.test(path) && [...path.matchAll(/:(\w+)/g)].some((m) => ADDRESSING.test(m[1]!))) return true;
  const body = op?.requestBody?.content?.['application/json']?.schema;
  const branch = body?.anyOf?.[0] ?? body?.oneOf?.[0] ?? body;
  const names = [...(op?.parameters ?? []).map((p) => p.name), ...Object.keys(branch?.properties ?? {})];
  return names.some((n) => ADDRESSING.test(n));
}
const WITHOUT_SESSION = ['public', 'optional'];
const MEMBER_ROUTES = ['public', 'optional', 'account', 'engine'];

const asPerson = (p: Session) => ({ authorization: `Bearer ${p.token}`, enginecode: p.engineCode });
/**
 * Sign-out and token calls would end the caller's own session midway through the matrix (a refresh replaces the
 * caller's token): every later route would then refuse them unseen.
 */
const SESSION_ENDING = /logout|signout|token\/(revoke|refresh)|password\/reset|account\/(remove|quit)|\/leave/i;
/** The live event stream stays open for a signed-in caller (it carries only their own messages; notification tests). */
const STREAMS = new Set(['GET /v1/toolkit/live']);

async function call(method: string, path: string, op: Operation | undefined, headers: Record<string, string>) {
  const url = path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(String(valueFor(name, undefined))));
  const query = (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(valueFor(p.name, p.schema)))}`);
  const body = method === 'GET' || method === 'DELETE' ? undefined : bodyFor(op?.requestBody?.content?.['application/json']?.schema);
  const res = await t.app.inject({ method: method as 'POST', url: query.length ? `${url}?${query.join('&')}` : url, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { payload: JSON.stringify(body) } : {}) });
  return res;
}

const apiRoutes = () => [...routeAccessOf(t.app)].filter(([route]) => !route.startsWith('GET /config.js'));
const operationOf = (route: string) => {
  const [method, path] = route.split(' ') as [string, string];
  return { method, path, op: doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()] };
};

describe('the access matrix', () => {
  it('every route is in the policy table, declaring the access the table gives it', () => {
    const declared = new Map(apiRoutes());
    const table = new Map<string, string>(Object.entries(ACCESS_POLICY).flatMap(([access, routes]) => routes.map((r: string) => [r, access] as const)));
    table.delete('GET /config.js');
    const missing = [...declared.keys()].filter((r) => !table.has(r));
    const gone = [...table.keys()].filter((r) => !declared.has(r));
    const differ = [...declared].filter(([r, access]) => table.has(r) && table.get(r) !== access).map(([r, access]) => `${r}: declares ${access}, table says ${table.get(r)}`);
    expect({ missing, gone, differ }).toEqual({ missing: [], gone: [], differ: [] });
  });

  it('an xlsx export holds no hidden field: not in the sheet, nor anywhere in the archive', async () => {
    // Before the matrix below (after it the administrator's session is refused). The archive is read part by part with the zip reader exceljs itself uses.
    const exceljs = createRequire(import.meta.url).resolve('exceljs');
    const unzipper = createRequire(exceljs)('unzipper') as { Open: { buffer(b: Buffer): Promise<{ files: { path: string; buffer(): Promise<Buffer> }[] }> } };
    const exported = async (p: Session, body: Record<string, unknown> = {}) => {
      const c = nodeClient(t.app, p);
      const { taskId } = await c.post('/v1/dataExport/addExportTask', { schemaCode: code, ...body });
      await drainJobs(t);
      expect(await task(c, taskId)).toMatchObject({ state: 'Finished', exportState: 'Success' });
      const bytes = await download(t, c, taskId, 'Result');
      const parts = (await unzipper.Open.buffer(bytes)).files;
      const xml = (await Promise.all(parts.map((f) => f.buffer()))).map((b) => b.toString('utf8')).join('\n');
      return { rows: await rowsOfXlsx(bytes), xml, parts: parts.length };
    };
    // The administrator's file holds the hidden marker, so its absence below is the group's rights at work.
    const full = await exported(admin);
    expect(full.xml).toContain(HIDDEN);
    expect(full.rows[0]).toContain('机密');
    const theirs = await exported(grouped);
    expect(theirs.parts).toBeGreaterThan(3);
    expect(theirs.rows[0]).toContain('标题');
    expect(theirs.rows[0]).not.toContain('机密');
    expect(theirs.rows.flat()).toContain(SEEN);
    expect(theirs.xml).toContain(SEEN);
    expect(theirs.xml).not.toContain(HIDDEN);
    // Naming the hidden column does not bring it back: it is no column of theirs.
    const asked = await nodeClient(t.app, grouped).raw('POST', '/v1/dataExport/addExportTask', { schemaCode: code, columns: ['Title', 'Secret'] });
    expect(asked.body.successful).toBe(false);
  });

  it('anonymous callers are refused (200201) by every route that needs a session, and members by every administrator route (100403)', async () => {
    const faults: string[] = [];
    for (const [route, access] of apiRoutes()) {
      if (access === 'public' || access === 'optional') continue;
      const { method, path, op } = operationOf(route);
      const anonymous = await call(method, path, op, {});
      if (anonymous.json().errorCode !== 200201) faults.push(`${route} anonymous: ${anonymous.statusCode} ${anonymous.body.slice(0, 160)}`);
      if (access === 'admin') {
        const member = await call(method, path, op, asPerson(grouped));
        if (member.json().errorCode !== 100403) faults.push(`${route} member: ${member.statusCode} ${member.body.slice(0, 160)}`);
      }
    }
    expect(faults).toEqual([]);
  });

  it('a member with each data scope sees exactly the seeded records it allows, and changes exactly those its edit scope allows', async () => {
    const listed = async (m: Member) => {
      const res = await nodeClient(t.app, m).post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: -1 });
      return { ids: (res.list as { ObjectId: string }[]).map((r) => r.ObjectId).filter((id) => id !== objectId).sort(), total: res.total as number };
    };
    const faults: string[] = [];
    for (const { scope, m } of viewers) {
      const want = seeded.filter((r) => allowed(r, m.userId, scope)).map((r) => r.id).sort();
      const got = await listed(m);
      if (JSON.stringify(got.ids) !== JSON.stringify(want) || got.total !== want.length + (scope === 'all' ? 1 : 0)) faults.push(`view ${scope}: ${got.ids.length} (total ${got.total}), expected ${want.length}`);
    }
    for (const { scope, m } of editors) {
      const c = nodeClient(t.app, m);
      for (const r of editable) {
        const saved = await c.raw('POST', '/v1/form/action/execute', { schemaCode: editCode, actionCode: 'Save', objectId: r.id, values: { Title: r.marker } });
        const may = allowed(r, m.userId, scope);
        if (saved.body.successful !== may || (!may && saved.body.errorCode !== 250003)) faults.push(`edit ${scope} ${r.label}: ${saved.body.errorCode ?? 'saved'}, expected ${may ? 'saved' : 250003}`);
        if (!may) {
          const removed = await c.raw('POST', '/v1/form/action/execute', { schemaCode: editCode, actionCode: 'Remove', objectId: r.id });
          if (removed.body.errorCode !== 250003) faults.push(`remove ${scope} ${r.label}: ${removed.body.errorCode ?? 'removed'}, expected 250003`);
        }
      }
    }
    expect(faults).toEqual([]);
    // Every scope but 'all' leaves records out, and every scope lets some in: the seeds tell the scopes apart.
    for (const { scope, m } of viewers) expect(seeded.filter((r) => allowed(r, m.userId, scope)).length).toBeGreaterThan(0);
    expect(new Set(viewers.map(({ scope, m }) => seeded.filter((r) => allowed(r, m.userId, scope)).length)).size).toBeGreaterThan(3);
  }, 60_000);

  it('a member with each edit scope removes exactly the records it allows (on the second form, whose records the matrix does not read)', async () => {
    const faults: string[] = [];
    for (const { scope, m } of editors) {
      const c = nodeClient(t.app, m);
      // Their own three records; refusals of every other record were checked above.
      for (const r of editable.filter((x) => x.label.startsWith(`${m.userId}-`))) {
        const removed = await c.raw('POST', '/v1/form/action/execute', { schemaCode: editCode, actionCode: 'Remove', objectId: r.id });
        const may = allowed(r, m.userId, scope);
        if (removed.body.successful !== may) faults.push(`remove ${scope} ${r.label}: ${removed.body.errorCode ?? 'removed'}, expected ${may ? 'removed' : 250003}`);
      }
    }
    expect(faults).toEqual([]);
  });

  it("an app's administrator sees all of their app and designs nothing of another; the other app's administrator is a member here", async () => {
    const mine = nodeClient(t.app, appAdmin);
    const theirs = nodeClient(t.app, otherAppAdmin);
    const loaded = async (c: OrgClient, schemaCode: string, id: string) => JSON.stringify(await c.raw('POST', '/v1/form/loaddata', { schemaCode, objectId: id }).then((r) => r.body));
    expect(await loaded(mine, code, objectId)).toContain(HIDDEN);
    expect((await mine.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 1 })).total).toBe(seeded.length + 1);
    expect((await mine.raw('POST', '/v1/formdesign/load', { schemaCode: code })).body.successful).toBe(true);
    expect(await mine.get('/v1/functionnode/app/hascode/list')).toMatchObject({ codes: [appCode], isAdministrator: false });
    expect((await mine.get('/v1/functionnode/app/subadminapplist')).list.map((n: { code: string }) => n.code)).toEqual([appCode]);
    // Another app's design and data, and the groups of this app for the other app's administrator: refused.
    for (const [client, form] of [[mine, otherApp.code], [theirs, code]] as const) {
      for (const [path, body] of [
        ['/v1/formdesign/load', { schemaCode: form }],
        ['/v1/form/permission/group/list', { schemaCode: form }],
        ['/v1/form/permission/group/save', { schemaCode: form, group: { name: '越权', members: { users: [] }, actions: ['view'], viewScope: 'all', editScope: 'all' } }],
        ['/v1/functionnode/auth/list', { code: form }],
      ] as const) {
        const res = await client.raw('POST', path, body);
        expect(res.body.successful, `${path} ${form}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(false);
      }
    }
    const asMember = await loaded(theirs, code, objectId);
    expect(asMember).toContain(SEEN);
    expect(asMember).not.toContain(HIDDEN);
    expect(await loaded(mine, otherApp.code, otherApp.objectId)).not.toContain(OTHER_APP);
  });

  it('a share link opens exactly the shared record to anonymous visitors', async () => {
    const visit = (token: string) => t.app.inject({ method: 'GET', url: `/v1/external/share?engineCode=${admin.engineCode}&token=${token}` });
    const opened = await visit(shareToken);
    expect(opened.body).toContain(sharedMarker);
    for (const marker of [SEEN, HIDDEN, OTHER_APP, ...[...seeded, ...editable].filter((r) => r.marker !== sharedMarker).map((r) => r.marker)]) expect(opened.body).not.toContain(marker);
    expect((await visit('x'.repeat(24))).json().errorCode).toBe(330101);
  });

  it('no route answers a record to a caller outside its rights, nor a hidden field, to any kind of caller', async () => {
    // The markers are there to be seen by those who may: the administrator sees both, the group only the first.
    const loaded = (p: Session) => call('POST', '/v1/form/loaddata', operationOf('POST /v1/form/loaddata').op, asPerson(p)).then((r) => r.body);
    expect(await loaded(admin)).toContain(HIDDEN);
    const groupView = await loaded(grouped);
    expect(groupView).toContain(SEEN);
    expect(groupView).not.toContain(HIDDEN);

    const record = [SEEN, HIDDEN];
    const everyMarker = [...record, OTHER_APP, ...seeded.map((r) => r.marker), ...editable.map((r) => r.marker)];
    const unseen = (userId: string, scope: DataScope) => [...(scope === 'all' ? [] : record), OTHER_APP, ...seeded.filter((r) => !allowed(r, userId, scope)).map((r) => r.marker)];
    const callers: Caller[] = [
      { who: 'anonymous', headers: {}, never: everyMarker },
      { who: 'anonymous with a share link', headers: {}, never: everyMarker.filter((m) => m !== sharedMarker), target: { token: shareToken }, only: WITHOUT_SESSION },
      { who: "another engine's administrator", headers: asPerson(other), never: everyMarker },
      { who: 'a member without the app', headers: asPerson(outsider), never: everyMarker },
      { who: 'an external user with the app, in no group', headers: asPerson(external), never: everyMarker },
      { who: 'a member of the group hiding the field', headers: asPerson(grouped), never: [HIDDEN, OTHER_APP] },
      ...viewers.map(({ scope, m }) => ({ who: `a member with view scope ${scope}`, headers: asPerson(m), never: unseen(m.userId, scope), only: MEMBER_ROUTES, addressing: true })),
      { who: "another app's administrator, a member of this one", headers: asPerson(otherAppAdmin), never: [HIDDEN], only: MEMBER_ROUTES },
      { who: "this app's administrator, with another app's ids", headers: asPerson(appAdmin), never: [OTHER_APP], target: otherApp, only: MEMBER_ROUTES },
    ];
    const leaks: string[] = [];
    let calls = 0;
    let linkOpened = 0;
    const signedOut = new Set<string>();
    const previous = new Map<string, string>();
    const perCaller = new Map<string, number>();
    const started = Date.now();
    for (const [route, access] of apiRoutes()) {
      if (SESSION_ENDING.test(route)) continue;
      const { method, path, op } = operationOf(route);
      for (const caller of callers) {
        if (caller.only && !caller.only.includes(access ?? '')) continue;
        if (STREAMS.has(route) && caller.headers.authorization) continue;
        if (caller.addressing && !addresses(op, path)) continue;
        Object.assign(target, { code, objectId, appCode, token: 'x' }, caller.target ?? {});
        const res = await call(method, path, op, caller.headers);
        calls += 1;
        perCaller.set(caller.who, (perCaller.get(caller.who) ?? 0) + 1);
        for (const marker of caller.never) if (res.body.includes(marker)) leaks.push(`${route} → ${caller.who} saw ${marker}`);
        if (caller.target?.token && res.body.includes(sharedMarker)) linkOpened += 1;
        // A caller whose session a route ended would pass every later route unseen: none may lose it.
        if (caller.headers.authorization && access !== 'public' && res.statusCode === 401 && res.json().errorCode === 200201) signedOut.add(`${caller.who} at ${route} (after ${previous.get(caller.who)})`);
        previous.set(caller.who, route);
      }
    }
    Object.assign(target, { code, objectId, appCode, token: 'x' });
    console.info(`access matrix: ${calls} calls by ${callers.length} callers in ${Date.now() - started} ms`);
    console.info([...perCaller].map(([who, n]) => `${n} ${who}`).join('; '));
    expect(calls).toBeGreaterThan(callers.length * 120);
    // The link's token reached the route that opens it: the caller with the link saw the shared record there.
    expect(linkOpened).toBeGreaterThan(0);
    expect([...signedOut].slice(0, 5)).toEqual([]);
    expect(leaks).toEqual([]);
    // See docs/decisions/0064 "Cost" for the number of calls and their time.
  }, 240_000);
});

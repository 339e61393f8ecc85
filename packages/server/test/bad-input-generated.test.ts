import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, registerPerson, type TestApp } from './helpers.ts';

// Bad input generated from the OpenAPI document the app builds (docs/decisions/0028): every string parameter of every
// route — body fields (nested ones too), query and path parameters — gets a U+0000, an unpaired surrogate, a 1 MB
// string and a value of the wrong type; every route with a body gets an empty body and a body nested 10,000 levels
// deep. No answer may be a 5xx, and no table of the platform or the engine schema may change.

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; maxLength?: number; enum?: unknown[] };
type Operation = { parameters?: { in: string; name: string; schema?: Schema }[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };

interface StringSlot {
  /** Dotted path as the 777 names it. */
  path: string;
  maxLength?: number;
  /** Only a string is accepted here (no union with numbers or objects). */
  stringOnly: boolean;
}

const branches = (s: Schema): Schema[] => [s, ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];
const isType = (s: Schema, type: string) => (Array.isArray(s.type) ? s.type.includes(type) : s.type === type);

/** The string leaves of a JSON schema (objects and the first item of lists, three levels deep). */
function stringSlots(schema: Schema | undefined, path = '', depth = 0): StringSlot[] {
  if (!schema || depth > 3) return [];
  const out: StringSlot[] = [];
  const all = branches(schema);
  const strings = all.filter((b) => isType(b, 'string'));
  const others = all.filter((b) => b.type !== undefined && !isType(b, 'string') && !isType(b, 'null'));
  if (path && strings.length > 0) {
    const max = strings.map((s) => s.maxLength).filter((n): n is number => typeof n === 'number');
    out.push({ path, maxLength: max.length ? Math.max(...max) : undefined, stringOnly: others.length === 0 && !strings.some((s) => Array.isArray(s.type)) });
  }
  for (const b of all) {
    for (const [key, child] of Object.entries(b.properties ?? {})) out.push(...stringSlots(child, path ? `${path}.${key}` : key, depth + 1));
    if (isType(b, 'array') && b.items) out.push(...stringSlots(b.items, path ? `${path}.0` : '0', depth + 1));
  }
  const seen = new Set<string>();
  return out.filter((s) => !seen.has(s.path) && seen.add(s.path));
}

/** An object holding `value` at the dotted `path` (numeric parts become list indexes). */
function bodyWith(path: string, value: unknown): unknown {
  const parts = path.split('.');
  let out: unknown = value;
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    out = /^\d+$/.test(part) ? [out] : { [part]: out };
  }
  return out;
}

const NUL = 'a\u0000b';
const SURROGATE = 'a\ud800b';
const ONE_MB = 'x'.repeat(1024 * 1024);
const DEEP = `${'{"a":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;

let t: TestApp;
let admin: Awaited<ReturnType<typeof registerPerson>>;
let doc: { paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app);
  doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
});
afterAll(() => t.close());

/** Row counts of every table of the platform schema and of the engine's schema. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await sql<{ s: string; n: string }>`
    select table_schema as s, table_name as n from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema in ('platform', ${`e_${admin.engineCode}`}) order by 1, 2`.execute(t.database.db);
  const counts: Record<string, number> = {};
  for (const { s, n } of tables.rows) {
    const r = await sql<{ c: number }>`select count(*)::int as c from ${sql.table(`${s}.${n}`)}`.execute(t.database.db);
    counts[`${s}.${n}`] = r.rows[0]!.c;
  }
  return counts;
}

interface Sent {
  route: string;
  what: string;
  status: number;
  body: { successful?: boolean; errorCode?: number; detail?: { issues?: { path: string; message: string }[] } } | undefined;
}

async function send(method: string, url: string, options: { payload?: string; query?: string; contentType?: string }): Promise<Sent & { raw: string }> {
  const res = await t.app.inject({
    method: method.toUpperCase() as 'POST',
    url: options.query ? `${url}?${options.query}` : url,
    headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode, ...(options.payload !== undefined ? { 'content-type': options.contentType ?? 'application/json' } : {}) },
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
  let body: Sent['body'];
  try {
    body = res.json();
  } catch {
    body = undefined;
  }
  return { route: `${method.toUpperCase()} ${url}`, what: '', status: res.statusCode, body, raw: res.body.slice(0, 300) };
}

const issuePaths = (s: Sent) => (s.body?.detail?.issues ?? []).map((i) => i.path);
/** An issue names `path` or a field that contains it (a union such as a filter is reported as a whole). */
const names = (s: Sent, path: string) => issuePaths(s).some((p) => p === path || path.startsWith(`${p}.`));

describe('bad input generated from /v1/openapi.json', () => {
  it('answers every route without a 5xx, refuses unstorable text naming the field, and writes nothing', async () => {
    const before = await rowCounts();
    const faults: string[] = [];
    const expectThat = (ok: boolean, sent: Sent, why: string) => {
      if (!ok) faults.push(`${sent.route} [${sent.what}] ${why}: ${sent.status} ${JSON.stringify(sent.body).slice(0, 240)}`);
    };
    let requests = 0;
    let routes = 0;
    for (const [rawPath, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        routes += 1;
        const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
        const urlWith = (name?: string, value?: string) =>
          rawPath.replace(/\{(\w+)\}/g, (_w, n: string) => encodeURIComponent(n === name ? value! : 'abc123'));
        const url = urlWith();
        const jsonBody = op.requestBody?.content?.['application/json'];
        const hasBody = method !== 'get' && method !== 'delete';

        // Path parameters.
        for (const p of pathParams) {
          const nul = { ...(await send(method, urlWith(p.name, NUL), {})), what: `path ${p.name} NUL` };
          expectThat(nul.status === 200 && nul.body?.errorCode === 777 && issuePaths(nul).includes(p.name), nul, 'expected 777 naming the parameter');
          // A surrogate half cannot be percent-encoded as UTF-8: its bytes are what a client would send.
          const surrogate = { ...(await send(method, url.replace('abc123', 'a%ED%A0%80b'), {})), what: `path ${p.name} surrogate` };
          expectThat(surrogate.status < 500, surrogate, 'expected no 5xx');
          requests += 2;
        }

        // Query parameters.
        for (const p of (op.parameters ?? []).filter((x) => x.in === 'query')) {
          const q = (v: string) => `${encodeURIComponent(p.name)}=${encodeURIComponent(v)}`;
          for (const [what, query] of [['NUL', q(NUL)], ['surrogate', `${encodeURIComponent(p.name)}=a%ED%A0%80b`], ['1 MB', q(ONE_MB)], ['wrong type', `${q('a')}&${q('b')}`]] as const) {
            const s = { ...(await send(method, url, { query, ...(hasBody ? { payload: '{}' } : {}) })), what: `query ${p.name} ${what}` };
            requests += 1;
            expectThat(s.status < 500, s, 'expected no 5xx');
            if (what === 'NUL') expectThat(s.body?.errorCode === 777 && issuePaths(s).includes(p.name), s, 'expected 777 naming the parameter');
          }
        }

        if (!hasBody) continue;
        // Whole bodies.
        for (const [what, payload] of [['empty body', ''], ['10,000 levels', DEEP]] as const) {
          const s = { ...(await send(method, url, { payload })), what };
          requests += 1;
          expectThat(s.status < 500, s, 'expected no 5xx');
          if (jsonBody || rawPath === '/OpenApi/Invoke') expectThat(s.body?.successful === false || (s.body as { Successful?: boolean } | undefined)?.Successful === false, s, 'expected a refusal');
          if (jsonBody && what === '10,000 levels') expectThat(s.body?.errorCode === 777, s, 'expected 777');
        }

        // Every string field of the body.
        for (const slot of stringSlots(jsonBody?.schema)) {
          const cases: [string, unknown][] = [['NUL', NUL], ['surrogate', SURROGATE], ['1 MB', ONE_MB], ['wrong type', { wrong: [1] }]];
          for (const [what, value] of cases) {
            const s = { ...(await send(method, url, { payload: JSON.stringify(bodyWith(slot.path, value)) })), what: `${slot.path} ${what}` };
            requests += 1;
            expectThat(s.status < 500, s, 'expected no 5xx');
            expectThat(s.body?.successful === false, s, 'expected a refusal');
            if (what === 'NUL' || what === 'surrogate') expectThat(s.body?.errorCode === 777 && issuePaths(s).includes(slot.path), s, 'expected 777 naming the field');
            if (what === '1 MB' && slot.maxLength !== undefined && slot.maxLength < ONE_MB.length) expectThat(s.body?.errorCode === 777 && names(s, slot.path), s, 'expected 777 naming the too-long field');
            if (what === 'wrong type' && slot.stringOnly) expectThat(s.body?.errorCode === 777 && names(s, slot.path), s, 'expected 777 naming the field');
          }
        }
      }
    }
    if (process.env.FAULTS_FILE) (await import("node:fs")).writeFileSync(process.env.FAULTS_FILE, faults.join("\n"));
    expect(faults).toEqual([]);
    // The document really was walked: most of the API has a body or query to try.
    expect(routes).toBeGreaterThan(150);
    expect(requests).toBeGreaterThan(1000);
    expect(await rowCounts()).toEqual(before);
  }, 120_000);
});

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { call, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, createApp, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import { createForm, definition, everyDataControl, publish } from '../../../test/form-helpers.ts';
import type { FileStore } from '../files/file-store.ts';
import { readTar, TarWriter } from './tar.ts';

// An engine with something of everything for the backup tests (docs/decisions/0127): a form with every data control
// type and a sub-table, records with sub-table rows and attachments, comments, a workflow form with a started
// instance, a member with a password of their own.

export const controls = (refCode: string) => [
  ...everyDataControl(refCode),
  { type: 'dynamic', code: 'Dyn' },
  { type: 'formula', code: 'Double', options: { expression: '{Amount}*2' } },
  {
    type: 'gridView', code: 'Items',
    controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'number', code: 'Qty', options: { decimalPlaces: 2 } }, { type: 'dateTime', code: 'ItemDate' }, { type: 'user', code: 'ItemUser' }, { type: 'checkbox', code: 'ItemOk' }],
  },
];

export interface Filled {
  admin: Person;
  a: OrgClient;
  member: Person & { userId: string };
  formCode: string;
  flowCode: string;
  recordIds: string[];
  instanceId: string;
  fileIds: string[];
}

export async function upload(app: FastifyInstance, who: Person, name: string, bytes: Buffer) {
  const r = await app.inject({
    method: 'POST', url: '/v1/file/upload', query: { scene: 'attachment', fileName: name },
    headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/octet-stream' }, payload: bytes,
  });
  return r.json().data as { fileId: string; name: string; size: number; contentType: string };
}

/** Fills the administrator's engine with forms, records, files, comments and a workflow instance. */
export async function fillEngine(t: TestApp, admin: Person): Promise<Filled> {
  const a = nodeClient(t.app, admin);
  const appCode = (await createApp(a)).code as string;
  const deptId = (await a.post('/v1/org/department/create', { parentId: await companyIdOf(t, admin.engineCode), name: '销售部' })).id as string;
  const member = await addMember(t, admin, { name: '李四', departmentIds: [deptId] });
  const formCode = (await createForm(a, appCode)).code as string;
  await publish(a, formCode, definition(controls(formCode), { enableFormSNS: true, enableTask: true }));
  const me = (await a.post('/v1/form/loaddata', { schemaCode: formCode })).system.CreatedBy as string;
  const fileIds: string[] = [];
  const recordIds: string[] = [];
  const first = await a.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Submit', values: { Title: '第一条' } });
  recordIds.push(first.objectId);
  for (let i = 0; i < 3; i++) {
    const bytes = Buffer.concat([Buffer.from(`%PDF-1.4 合同 ${i}\n`), createHash('sha256').update(String(i)).digest(), Buffer.alloc(70_000 * (i + 1), i)]);
    const file = await upload(t.app, admin, `合同${i}.pdf`, bytes);
    fileIds.push(file.fileId);
    const saved = await a.post('/v1/form/action/execute', {
      schemaCode: formCode, actionCode: 'Submit',
      values: {
        Title: `订单“${i}”`, Notes: '第一行\n第二行\t制表', Amount: 1234.5 + i, When: '2024-03-05T02:30:00.123Z', Level: '中', Tags: ['红', '蓝'], City: '上海', Done: i % 2 === 0,
        Addr: { adcode: '310101', adname: '上海市黄浦区', detail: '南京东路1号' }, Loc: { address: '外滩', point: { lat: 31.24, lng: 121.49 } },
        Person: member.userId, Team: [member.userId, me], Dept: deptId, Depts: [deptId], Ref: first.objectId, Refs: [first.objectId],
        Codes: ['A001', 'A002'], Dyn: { k: [1, 2], big: '12345678901234567890' },
        Files: [{ id: file.fileId, name: file.name, size: file.size, contentType: file.contentType }],
      },
      children: { Items: [{ ItemName: '螺丝', Qty: 3, ItemDate: '2024-01-01T16:00:00.000Z', ItemUser: member.userId, ItemOk: false }, { ItemName: '螺母', Qty: 4.25, ItemOk: true }] },
    });
    recordIds.push(saved.objectId);
    await a.post('/v1/toolkit/sns/add', { schemaCode: formCode, objectId: saved.objectId, text: `评论 ${i}` });
  }
  const flowCode = (await createForm(a, appCode, { displayName: '报销单' }, FunctionNodeType.WorkflowModule)).code as string;
  await publish(a, flowCode, definition([{ type: 'textBox', code: 'Title' }, { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } }]));
  const S = { type: 'Start', code: 'Start', name: '发起' };
  const E = { type: 'End', code: 'End', name: '结束' };
  const A = { type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'users', ids: [member.userId] }] } };
  await a.post('/v1/workflow/template/save', { schemaCode: flowCode, template: { activities: [S, A, E], routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }] } });
  await a.post('/v1/workflow/template/publish', { schemaCode: flowCode });
  const objectId = (await a.post('/v1/form/action/execute', { schemaCode: flowCode, actionCode: 'Save', values: { Title: '差旅', Amount: 88 } })).objectId;
  const instance = await a.post('/v1/workflow/instance/start', { schemaCode: flowCode, objectId, opinion: { text: '请审批' } });
  return { admin, a, member, formCode, flowCode, recordIds, instanceId: instance.instanceId, fileIds };
}

/** Row count and an md5 of every row's text, in a fixed order, for each table of an engine schema (the reports' caches left out). */
export async function schemaFingerprint(db: Kysely<any>, engineCode: string): Promise<Record<string, string>> {
  const schema = `e_${engineCode}`;
  const tables = await sql<{ t: string }>`select relname as t from pg_class where relnamespace = ${schema}::regnamespace and relkind = 'r' and relname not like 'kysely_migration%' and relname not like '%\\_\\_agg' order by 1`.execute(db);
  const out: Record<string, string> = {};
  for (const { t } of tables.rows) {
    const r = await sql<{ n: number; h: string | null }>`select count(*)::int as n, md5(string_agg(x::text, '|' order by x::text)) as h from ${sql.id(schema, t)} x`.execute(db);
    out[t] = `${r.rows[0]!.n}:${r.rows[0]!.h ?? ''}`;
  }
  return out;
}

export async function bytesOf(store: FileStore, key: string): Promise<Buffer | undefined> {
  const body = await store.get(key);
  if (!body) return undefined;
  const parts: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) parts.push(chunk);
  return Buffer.concat(parts);
}

/** Signs in by password to `engineCode` (the platform's own sign-in route). */
export async function signIn(app: FastifyInstance, mobile: string, password: string, engineCode: string) {
  const r = await call(app, 'POST', '/v1/login/mobile/password', { body: { mobile, password, engineCode } });
  if (!r.body?.successful) throw new Error(`sign-in failed: ${JSON.stringify(r.body)}`);
  return { token: r.body.data.accessToken as string, engineCode, mobile, password };
}

/** Writes a copy of a backup file with some entries changed by `edit` (an answer of undefined leaves the entry out). */
export async function rewriteBackup(file: string, out: string, edit: (name: string, bytes: Buffer) => Buffer | undefined): Promise<void> {
  const input = createReadStream(file).pipe(createGunzip());
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(out));
  const tar = new TarWriter(gzip);
  for await (const entry of readTar(input as AsyncIterable<Buffer>)) {
    const parts: Buffer[] = [];
    for await (const part of entry.body) parts.push(part);
    const changed = edit(entry.name, Buffer.concat(parts));
    if (changed) await tar.addBuffer(entry.name, changed);
  }
  await tar.finish();
  gzip.end();
  await written;
}

/** The files under a folder (recursively), relative to it; none when it does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.relative(dir, path.join(d.parentPath, d.name)));
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, grant, nodeClient, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { insertFile } from '../files/files.repo.ts';
import { taskTipSweep } from './task-tip-delivery.ts';

// Comments and task tips on records (docs/decisions/0009) on PGlite and PostgreSQL: only where the form turns them
// on, whoever may read the record comments, one's own comment (or any, for an app administrator) is removed with its
// replies, at most 2000 characters and 8 files, and another engine finds nothing.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
let adminId: string;
let member: InvitedMember;
let m: OrgClient;
beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  member = await addInvitedMember(t, admin, { name: '李四' });
  m = nodeClient(t.app, member);
  const row = await engineDb(t.database.db, admin.engineCode).selectFrom('org_users').select('id').where('mobile', '=', admin.mobile).executeTakeFirstOrThrow();
  adminId = row.id;
});
afterAll(() => t.close());

const ON = { enableFormSNS: true, enableTask: true };

/** A published form (comments and task tips on unless told) with one record; the member may open it. */
async function formWithRecord(attributes: Record<string, unknown> = ON) {
  const schemaCode = (await createForm(a, appCode)).code as string;
  await publish(a, schemaCode, definition([{ type: 'textBox', code: 'Title' }], attributes));
  await grant(a, schemaCode, member.userId, 'access');
  const { objectId } = await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Title: '订单' } });
  return { schemaCode, objectId: objectId as string };
}

/** A pending upload of scene sns, as the files module leaves it (the bytes are not needed here). */
async function pendingFile(userId: string, engineCode = admin.engineCode): Promise<string> {
  const id = newId();
  await insertFile(engineDb(t.database.db, engineCode), { id, scene: 'sns', name: `${id.slice(-4)}.png`, size: 10, content_type: 'image/png', storage_key: `${engineCode}/202611/${id}`, created_by: userId });
  return id;
}

const remove = (who: Pick<Person, 'token' | 'engineCode'>, snsId: string) => call(t.app, 'DELETE', '/v1/toolkit/sns/remove', { token: who.token, engineCode: who.engineCode, query: { snsId } });

describe('comments', () => {
  it('are refused on a form without enableFormSNS, and task tips without enableTask', async () => {
    const { schemaCode, objectId } = await formWithRecord({});
    for (const url of ['/v1/toolkit/sns/list', '/v1/toolkit/sns/count']) expect((await a.raw('POST', url, { schemaCode, objectId })).body.errorCode, url).toBe(270001);
    expect((await a.raw('POST', '/v1/toolkit/sns/add', { schemaCode, objectId, text: 'hi' })).body).toMatchObject({ successful: false, errorCode: 270001, errorMessage: '该表单未开启评论' });
    expect((await a.raw('POST', '/v1/tasktip/list', { schemaCode, objectId })).body.errorCode).toBe(270004);
    const tip = { schemaCode, objectId, content: 'x', remindTime: new Date(Date.now() + 3600_000).toISOString(), receiverIds: [adminId] };
    expect((await a.raw('POST', '/v1/tasktip/add', tip)).body.errorCode).toBe(270004);
  });

  it('adds trimmed comments of 1–2000 characters, lists them newest first with paging, and counts them', async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const first = await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '  第一条  ' });
    expect(first).toMatchObject({ text: '第一条', authorId: adminId, authorName: '张三', replyTo: null, files: [], canRemove: true, schemaCode, objectId });
    expect(first.snsId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const longest = await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: 'x'.repeat(2000) });
    expect(longest.text).toHaveLength(2000);
    // Trimming comes first: 2000 characters with spaces around are accepted.
    expect((await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: ` ${'y'.repeat(2000)} ` })).text).toHaveLength(2000);
    for (const text of ['z'.repeat(2001), '   ', '']) {
      const r = await a.raw('POST', '/v1/toolkit/sns/add', { schemaCode, objectId, text });
      expect(r.body.errorCode).toBe(777);
      expect(r.body.detail.issues[0].path).toBe('text');
    }
    const third = await m.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '成员的评论' });
    expect(third).toMatchObject({ authorName: '李四', canRemove: true });

    const page0 = await a.post('/v1/toolkit/sns/list', { schemaCode, objectId, pageIndex: 0, pageSize: 1 });
    expect(page0).toMatchObject({ total: 4, hasMore: true, count: 4 });
    expect(page0.list.map((c: any) => c.snsId)).toEqual([third.snsId]);
    // The administrator of the app may remove anyone's comment; the member only their own.
    expect(page0.list[0].canRemove).toBe(true);
    const all = await m.post('/v1/toolkit/sns/list', { schemaCode, objectId, pageSize: 10 });
    expect(all.list.map((c: any) => c.text)).toEqual(['成员的评论', 'y'.repeat(2000), 'x'.repeat(2000), '第一条']);
    expect(all.list.map((c: any) => c.canRemove)).toEqual([true, false, false, false]);
    expect(all.hasMore).toBe(false);
    expect(await a.post('/v1/toolkit/sns/count', { schemaCode, objectId })).toEqual({ count: 4 });
    expect((await a.raw('POST', '/v1/toolkit/sns/list', { schemaCode, objectId, pageSize: 7 })).body.errorCode).toBe(777);
  });

  it('carries up to 8 of the author\'s own uploads, claimed to the record for this comment only', async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const eight = await Promise.all(Array.from({ length: 8 }, () => pendingFile(adminId)));
    const withFiles = await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '附件', fileIds: eight });
    expect(withFiles.files.map((f: any) => f.id)).toEqual(eight);
    expect(withFiles.files[0]).toMatchObject({ size: 10, contentType: 'image/png' });
    const claimed = await engineDb(t.database.db, admin.engineCode).selectFrom('files').select(['schema_code', 'object_id', 'control_code']).where('id', 'in', eight).execute();
    expect(new Set(claimed.map((c) => `${c.schema_code}/${c.object_id}/${c.control_code}`))).toEqual(new Set([`${schemaCode}/${objectId}/__sns:${withFiles.snsId}`]));
    const listed = await m.post('/v1/toolkit/sns/list', { schemaCode, objectId });
    expect(listed.list[0].files).toHaveLength(8);
    // Whoever reads the record reads its comments' files.
    expect((await m.post('/v1/file/headers', { fileIds: eight })).list).toHaveLength(8);

    const nine = await Promise.all(Array.from({ length: 9 }, () => pendingFile(adminId)));
    const tooMany = await a.raw('POST', '/v1/toolkit/sns/add', { schemaCode, objectId, text: '太多', fileIds: nine });
    expect(tooMany.body.errorCode).toBe(777);
    expect(tooMany.body.detail.issues[0].path).toBe('fileIds');
    // A file already on another comment, or someone else's pending upload, is refused and nothing is written.
    expect((await a.raw('POST', '/v1/toolkit/sns/add', { schemaCode, objectId, text: '重复', fileIds: [eight[0]] })).body.errorCode).toBe(260006);
    const membersUpload = await pendingFile(member.userId);
    expect((await a.raw('POST', '/v1/toolkit/sns/add', { schemaCode, objectId, text: '别人的', fileIds: [nine[0], membersUpload] })).body.errorCode).toBe(260001);
    expect((await a.post('/v1/toolkit/sns/count', { schemaCode, objectId })).count).toBe(1);
    const stillPending = await engineDb(t.database.db, admin.engineCode).selectFrom('files').select('schema_code').where('id', '=', nine[0]).executeTakeFirstOrThrow();
    expect(stillPending.schema_code).toBeNull();
  });

  it('replies to a comment and to a reply; replies are shown oldest first under their top-level comment', async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const top = await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '问题' });
    const reply = await m.post('/v1/toolkit/sns/comment/add', { replyTo: top.snsId, text: '回答' });
    expect(reply).toMatchObject({ replyTo: top.snsId, replyToAuthorName: '张三', objectId, schemaCode, authorName: '李四' });
    const answer = await a.post('/v1/toolkit/sns/comment/add', { replyTo: reply.snsId, text: '谢谢' });
    expect(answer).toMatchObject({ replyTo: reply.snsId, replyToAuthorName: '李四' });
    const later = await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '另一条' });

    const listed = await a.post('/v1/toolkit/sns/list', { schemaCode, objectId });
    expect(listed).toMatchObject({ total: 2, count: 4 });
    expect(listed.list.map((c: any) => c.snsId)).toEqual([later.snsId, top.snsId]);
    expect(listed.list[0].replies).toEqual([]);
    expect(listed.list[1].replies.map((r: any) => [r.text, r.replyTo, r.replyToAuthorName])).toEqual([['回答', top.snsId, '张三'], ['谢谢', reply.snsId, '李四']]);
    expect(await a.post('/v1/toolkit/sns/count', { schemaCode, objectId })).toEqual({ count: 4 });
    for (const text of ['r'.repeat(2001), ' ']) expect((await a.raw('POST', '/v1/toolkit/sns/comment/add', { replyTo: top.snsId, text })).body.errorCode).toBe(777);
    const unknown = await a.raw('POST', '/v1/toolkit/sns/comment/add', { replyTo: newId(), text: '无' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorCode).toBe(270002);
  });

  it("removes one's own comment with its replies; another's is 403; an app administrator removes any", async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const adminsComment = await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '管理员' });
    const membersComment = await m.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '成员' });
    const reply = await a.post('/v1/toolkit/sns/comment/add', { replyTo: membersComment.snsId, text: '回复成员' });
    const replyToReply = await m.post('/v1/toolkit/sns/comment/add', { replyTo: reply.snsId, text: '再回复' });
    const ownReply = await m.post('/v1/toolkit/sns/comment/add', { replyTo: adminsComment.snsId, text: '成员回复管理员' });

    const refused = await remove(member, adminsComment.snsId);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(270003);
    expect((await remove(member, reply.snsId)).body.errorCode).toBe(270003);
    // The member removes their own reply under the administrator's comment.
    expect((await remove(member, ownReply.snsId)).body).toEqual({ successful: true, data: { removed: 1 } });
    // The administrator removes the reply (and the reply to it) under the member's comment, then the member's comment.
    expect((await remove(admin, reply.snsId)).body.data).toEqual({ removed: 2 });
    const again = await m.post('/v1/toolkit/sns/comment/add', { replyTo: membersComment.snsId, text: '新回复' });
    expect((await remove(admin, membersComment.snsId)).body.data).toEqual({ removed: 2 });
    const gone = await remove(admin, again.snsId);
    expect(gone.status).toBe(404);
    expect(gone.body.errorCode).toBe(270002);
    expect((await remove(member, replyToReply.snsId)).body.errorCode).toBe(270002);

    const left = await a.post('/v1/toolkit/sns/list', { schemaCode, objectId });
    expect(left.list.map((c: any) => [c.text, c.replies.length])).toEqual([['管理员', 0]]);
    expect(left.count).toBe(1);
    expect((await call(t.app, 'DELETE', '/v1/toolkit/sns/remove', { token: admin.token, engineCode: admin.engineCode, query: { snsId: 'nope' } })).body.errorCode).toBe(777);
  });

  it('follows who may read the record: no access is 404, an unknown record is 404', async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const outsider = await addInvitedMember(t, admin, { name: '王五' });
    const o = nodeClient(t.app, outsider);
    for (const [url, body] of [
      ['/v1/toolkit/sns/list', { schemaCode, objectId }],
      ['/v1/toolkit/sns/count', { schemaCode, objectId }],
      ['/v1/toolkit/sns/add', { schemaCode, objectId, text: '看不到' }],
      ['/v1/tasktip/list', { schemaCode, objectId }],
    ] as const) {
      const r = await o.raw('POST', url, body);
      expect(r.status, url).toBe(404);
      expect(r.body.errorCode, url).toBe(230001);
    }
    const top = await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '内部' });
    expect((await o.raw('POST', '/v1/toolkit/sns/comment/add', { replyTo: top.snsId, text: '偷偷回复' })).body.errorCode).toBe(230001);
    expect((await remove(outsider, top.snsId)).body.errorCode).toBe(230001);
    const missing = await a.raw('POST', '/v1/toolkit/sns/add', { schemaCode, objectId: newId(), text: '无此数据' });
    expect(missing.status).toBe(404);
    expect(missing.body.errorCode).toBe(250001);
    expect((await a.raw('POST', '/v1/toolkit/sns/count', { schemaCode, objectId: newId() })).body.errorCode).toBe(250001);
  });

  it("never lets another engine's user list, count, add, reply or remove", async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const top = await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '机密' });
    const stranger = await registerPerson(t.app);
    const s = nodeClient(t.app, stranger);
    for (const [url, body] of [
      ['/v1/toolkit/sns/list', { schemaCode, objectId }],
      ['/v1/toolkit/sns/count', { schemaCode, objectId }],
      ['/v1/toolkit/sns/add', { schemaCode, objectId, text: '外人' }],
      ['/v1/toolkit/sns/comment/add', { replyTo: top.snsId, text: '外人' }],
      ['/v1/tasktip/list', { schemaCode, objectId }],
    ] as const) expect((await s.raw('POST', url, body)).status, url).toBe(404);
    expect((await remove(stranger, top.snsId)).status).toBe(404);
    // Naming the other engine is refused before anything is read.
    const foreign = await call(t.app, 'POST', '/v1/toolkit/sns/list', { token: stranger.token, engineCode: admin.engineCode, body: { schemaCode, objectId } });
    expect(foreign.status).toBe(403);
    expect((await a.post('/v1/toolkit/sns/count', { schemaCode, objectId })).count).toBe(1);
  });
});

describe('mentions', () => {
  it('a mentioned member who can read the record is told once; one who cannot, or an unknown id, is refused and nothing is written', async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const outsider = await addInvitedMember(t, admin, { name: '王五' });
    const mentions = async (client: OrgClient) => (await client.post('/v1/toolkit/internalmessage/list', { category: 'comment' })).list.filter((x: { title: string }) => x.title.includes('提到了您'));
    await a.post('/v1/toolkit/sns/add', { schemaCode, objectId, text: '@李四 请看一下', mentionIds: [member.userId] });
    const told = await mentions(m);
    expect(told.map((x: { title: string }) => x.title)).toEqual([`张三在评论中提到了您：${(await a.post('/v1/formdesign/load', { schemaCode })).draft.definition.attributes.displayName}`]);
    expect(told[0].link).toMatchObject({ schemaCode, objectId });
    for (const ids of [[outsider.userId], ['no-such-user']]) {
      const refused = await a.raw('POST', '/v1/toolkit/sns/add', { schemaCode, objectId, text: '看看', mentionIds: ids });
      expect(refused.body.errorCode).toBe(777);
      expect(refused.body.detail.issues[0].path).toBe('mentionIds.0');
    }
    expect((await a.post('/v1/toolkit/sns/count', { schemaCode, objectId })).count).toBe(1);
    expect((await a.raw('POST', '/v1/toolkit/sns/add', { schemaCode, objectId, text: '重复', mentionIds: [member.userId, member.userId] })).body.errorCode).toBe(777);
  });
});

describe('task tips', () => {
  const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

  it('adds tips for chosen users, lists them by remind time, cancels and removes them', async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const later = await a.post('/v1/tasktip/add', { schemaCode, objectId, content: '  跟进合同  ', remindTime: new Date(Date.now() + 7200_000).toISOString(), receiverIds: [adminId, member.userId] });
    expect(later).toMatchObject({ content: '跟进合同', state: 'pending', createdBy: adminId, createdByName: '张三', canChange: true, schemaCode, objectId });
    expect(later.receivers).toEqual([{ id: adminId, name: '张三' }, { id: member.userId, name: '李四' }]);
    const sooner = await m.post('/v1/tasktip/add', { schemaCode, objectId, content: '催款', remindTime: inAnHour(), receiverIds: [member.userId] });

    const listed = await m.post('/v1/tasktip/list', { schemaCode, objectId });
    expect(listed.list.map((tip: any) => [tip.content, tip.canChange])).toEqual([['催款', true], ['跟进合同', false]]);
    expect(listed.total).toBe(2);

    const refused = await m.raw('POST', '/v1/tasktip/cancel', { id: later.id });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(270006);
    expect((await m.raw('POST', '/v1/tasktip/remove', { id: later.id })).body.errorCode).toBe(270006);
    expect(await m.post('/v1/tasktip/cancel', { id: sooner.id })).toMatchObject({ id: sooner.id, state: 'cancelled' });
    expect((await m.raw('POST', '/v1/tasktip/cancel', { id: sooner.id })).body.errorCode).toBe(270007);
    // The app administrator changes anyone's tip.
    expect(await a.post('/v1/tasktip/remove', { id: sooner.id })).toEqual({ removed: true });
    expect((await a.raw('POST', '/v1/tasktip/remove', { id: sooner.id })).body.errorCode).toBe(270005);
    expect((await a.post('/v1/tasktip/list', { schemaCode, objectId, states: ['cancelled'] })).list).toEqual([]);
    expect((await a.post('/v1/tasktip/list', { schemaCode, objectId, states: ['pending'] })).list.map((tip: any) => tip.id)).toEqual([later.id]);
  });

  it('a due tip reaches its receivers once, through the message center, and is done; a cancelled one is not sent', async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const sweep = taskTipSweep();
    const at = (ms: number) => new Date(Date.now() + ms);
    const soon = await m.post('/v1/tasktip/add', { schemaCode, objectId, content: '回访客户', remindTime: at(3600_000).toISOString(), receiverIds: [member.userId] });
    const cancelled = await m.post('/v1/tasktip/add', { schemaCode, objectId, content: '作废的提醒', remindTime: at(3600_000).toISOString(), receiverIds: [member.userId] });
    await m.post('/v1/tasktip/cancel', { id: cancelled.id });
    await a.post('/v1/tasktip/add', { schemaCode, objectId, content: '签合同', remindTime: at(7200_000).toISOString(), receiverIds: [adminId, member.userId] });
    const mine = ['任务提醒：回访客户', '任务提醒：作废的提醒', '任务提醒：签合同'];
    const titles = async (client: OrgClient) => (await client.post('/v1/toolkit/internalmessage/list', { category: 'tasktip' })).list.map((x: { title: string }) => x.title).filter((x: string) => mine.includes(x));

    // The sweep reads every engine's due tips (other tests' tips too): what this test asserts is its receivers' messages.
    await sweep.run(t.database.db, at(1800_000));
    expect(await titles(m)).toEqual([]);
    expect(await sweep.run(t.database.db, at(3700_000))).toBeGreaterThanOrEqual(1);
    expect(await sweep.run(t.database.db, at(3700_000))).toBe(0);
    expect(await titles(m)).toEqual(['任务提醒：回访客户']);
    expect((await m.post('/v1/tasktip/list', { schemaCode, objectId })).list.find((x: { id: string }) => x.id === soon.id).state).toBe('done');
    expect(await sweep.run(t.database.db, at(3 * 3600_000))).toBeGreaterThanOrEqual(1);
    expect(await titles(a)).toEqual(['任务提醒：签合同']);
    expect(await titles(m)).toEqual(['任务提醒：签合同', '任务提醒：回访客户']);
    const message = (await m.post('/v1/toolkit/internalmessage/list', { category: 'tasktip' })).list.find((x: { title: string }) => x.title === '任务提醒：签合同');
    expect(message.link).toMatchObject({ schemaCode, objectId });
  });

  it('refuses a past time, an empty or long text, no receivers and users outside the engine', async () => {
    const { schemaCode, objectId } = await formWithRecord();
    const base = { schemaCode, objectId, content: '提醒', remindTime: inAnHour(), receiverIds: [adminId] };
    const past = await a.raw('POST', '/v1/tasktip/add', { ...base, remindTime: new Date(Date.now() - 60_000).toISOString() });
    expect(past.body.errorCode).toBe(777);
    expect(past.body.detail.issues[0].path).toBe('remindTime');
    for (const bad of [{ content: ' ' }, { content: 'x'.repeat(501) }, { receiverIds: [] }, { receiverIds: [adminId, adminId] }, { remindTime: 'tomorrow' }]) {
      expect((await a.raw('POST', '/v1/tasktip/add', { ...base, ...bad })).body.errorCode, JSON.stringify(bad).slice(0, 40)).toBe(777);
    }
    const stranger = await a.raw('POST', '/v1/tasktip/add', { ...base, receiverIds: [adminId, 'no-such-user'] });
    expect(stranger.body.errorCode).toBe(270008);
    expect(stranger.body.detail.userIds).toEqual(['no-such-user']);
    expect((await a.raw('POST', '/v1/tasktip/add', { ...base, objectId: newId() })).body.errorCode).toBe(250001);
    expect((await a.post('/v1/tasktip/list', { schemaCode, objectId })).list).toEqual([]);
  });
});

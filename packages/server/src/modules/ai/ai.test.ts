import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, engineDb, orgClient, recordingClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import { OPENAI_KEY, serverSentEvents, startOpenAiFake, type OpenAiFake } from '../../../test/openai-fake.ts';

// The engine's AI provider against a fake OpenAI-compatible endpoint (docs/decisions/0124): the key sealed and never
// answered, whole and streamed answers, the usage log and the credit, the person's rate, and the gates' refusals.

const events = serverSentEvents;

describe('AI provider, chat and stream', () => {
  let t: TestApp;
  let admin: Person;
  let a: OrgClient;
  let member: Awaited<ReturnType<typeof addInvitedMember>>;
  let m: OrgClient;
  let fake: OpenAiFake;
  const answers: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerPerson(t.app, { userName: '管理员甲' });
    a = recordingClient(orgClient(t.app, admin), answers);
    member = await addInvitedMember(t, admin, { name: '成员乙' });
    m = recordingClient(orgClient(t.app, member), answers);
    fake = await startOpenAiFake();
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  const save = (over: Record<string, unknown> = {}) => a.raw('POST', '/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, apiKey: OPENAI_KEY, chatModel: 'qwen-chat', visionModel: 'qwen-vl', ...over });
  const stream = (person: { token: string; engineCode: string; userId?: string }, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v1/ai-service/stream-chat', headers: { authorization: `Bearer ${person.token}`, enginecode: person.engineCode }, payload: body });

  it('hides AI until an administrator configures it, and tells only the administrator why', async () => {
    expect(await m.get('/v1/ai/status')).toEqual({ available: false, reason: 'notConfigured', isAdmin: false });
    expect(await a.get('/v1/ai/status')).toEqual({ available: false, reason: 'notConfigured', isAdmin: true });
    const refused = await m.raw('POST', '/v1/openai/chat/completions', { messages: [{ role: 'user', content: '你好' }] });
    expect(refused.body.errorCode).toBe(480001);
    // Settings are the administrator's; a first save needs a key.
    expect((await m.raw('GET', '/v1/ai/settings')).status).toBe(403);
    expect((await save({ apiKey: undefined })).body.errorCode).toBe(777);
  });

  it('saves the provider with the key sealed, and answers a whole chat through it', async () => {
    const saved = await save();
    expect(saved.body.data).toMatchObject({ configured: true, hasKey: true, chatModel: 'qwen-chat', enabled: true, quotaTokens: null, usedTokens: 0 });
    expect(await m.get('/v1/ai/status')).toEqual({ available: true, reason: null, isAdmin: false });
    const row = await engineDb(t.database.db, admin.engineCode).selectFrom('ai_settings').select('api_key').executeTakeFirstOrThrow();
    expect(row.api_key).not.toContain(OPENAI_KEY);
    // The switch of the product follows the setting.
    const switches = await m.post('/v1/featureswitch/batch', { names: ['ai'] }).catch(() => null);
    if (switches) expect(JSON.stringify(switches)).toContain('"1"');

    const answer = await m.post('/v1/openai/chat/completions', { messages: [{ role: 'user', content: '上个月的报销' }], scene: 'chat' });
    expect(answer).toMatchObject({ model: 'qwen-chat', content: '收到：上个月的报销', finishReason: 'stop', usage: { promptTokens: 6, completionTokens: 9, totalTokens: 15 } });
    expect(fake.requests.at(-1)!.body).toMatchObject({ model: 'qwen-chat' });
    // The model is the engine's: a caller cannot name another.
    expect((await m.raw('POST', '/v1/openai/chat/completions', { messages: [{ role: 'user', content: 'x' }], model: 'gpt-4o' })).body.errorCode).toBe(777);
  });

  it('streams an answer piece by piece as server-sent events and counts its usage', async () => {
    const res = await stream(member, { engineCode: member.engineCode, userId: member.userId, sceneId: 'chat', message: '华东区合计', history: [{ role: 'user', content: '你好' }, { role: 'assistant', content: '你好！' }] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const got = events(res.body);
    const deltas = got.filter((e) => e.event === 'delta').map((e) => e.data.content);
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('收到：华东区合计');
    expect(got.at(-1)).toEqual({ event: 'done', data: { usage: { promptTokens: 10, completionTokens: 8, totalTokens: 18 }, model: 'qwen-chat' } });
    expect(fake.requests.at(-1)!.body.messages).toEqual([
      { role: 'user', content: '你好' },
      { role: 'assistant', content: '你好！' },
      { role: 'user', content: '华东区合计' },
    ]);
    // Only as the person signed in.
    const other = await stream(member, { engineCode: member.engineCode, userId: 'someone-else', sceneId: 'chat', message: 'x' });
    expect(other.json().errorCode).toBe(480007);
    const log = await a.get('/v1/ai/usage/list', { pageIndex: '0', pageSize: '10' });
    expect(log.items.map((r: { scene: string; totalTokens: number; ok: boolean; userName: string }) => [r.scene, r.totalTokens, r.ok, r.userName])).toEqual([
      ['chat', 18, true, '成员乙'],
      ['chat', 15, true, '成员乙'],
    ]);
    expect(await a.get('/v1/ai/usage/credit')).toEqual({ quotaTokens: null, usedTokens: 33, remainingTokens: null });
  });

  it('refuses once the credit is used up, and the usage log shows the calls', async () => {
    // A new credit starts the count again; the second call starts within it (13 of 15 used) and passes it.
    await save({ apiKey: undefined, quotaTokens: 15 });
    expect(await a.get('/v1/ai/usage/credit')).toEqual({ quotaTokens: 15, usedTokens: 0, remainingTokens: 15 });
    await m.post('/v1/openai/chat/completions', { messages: [{ role: 'user', content: '一二三四五' }] });
    await m.post('/v1/openai/chat/completions', { messages: [{ role: 'user', content: '一' }] });
    const refused = await m.raw('POST', '/v1/openai/chat/completions', { messages: [{ role: 'user', content: '二' }] });
    expect(refused.body.errorCode).toBe(480003);
    const streamRefused = await stream(member, { engineCode: member.engineCode, userId: member.userId, sceneId: 'chat', message: '三' });
    expect(streamRefused.json().errorCode).toBe(480003);
    expect(await a.get('/v1/ai/status')).toMatchObject({ available: false, reason: 'quotaExhausted' });
    expect((await a.get('/v1/ai/usage/list')).total).toBe(4);
    await save({ apiKey: undefined, quotaTokens: null });
  });

  it("holds each person to the engine's rate of calls a minute", async () => {
    await save({ apiKey: undefined, userCallsPerMinute: 2 });
    const other = await addInvitedMember(t, admin, { name: '成员丙' });
    const o = orgClient(t.app, other);
    const codes: number[] = [];
    for (let i = 0; i < 3; i += 1) codes.push((await o.raw('POST', '/v1/openai/chat/completions', { messages: [{ role: 'user', content: `第${i}次` }] })).body.errorCode ?? 200);
    expect(codes).toEqual([200, 200, 480004]);
    await save({ apiKey: undefined, userCallsPerMinute: 20 });
  });

  it("answers the provider's failures as catalogue errors and logs them", async () => {
    fake.script.push({ status: 500 });
    fake.script.push({ status: 500 });
    const failed = await m.raw('POST', '/v1/openai/chat/completions', { messages: [{ role: 'user', content: '失败' }] });
    expect(failed.body.errorCode).toBe(480005);
    const wrongKey = await save({ apiKey: 'sk-wrong-key-000000' });
    expect(wrongKey.status).toBe(200);
    const refused = await a.raw('POST', '/v1/ai/settings/test');
    expect(refused.body.errorCode).toBe(480005);
    expect(refused.body.errorMessage).toContain('401');
    await save();
    expect((await a.post('/v1/ai/settings/test')).reply).toContain('收到');
    const log = await a.get('/v1/ai/usage/list');
    expect(log.items.filter((r: { ok: boolean }) => !r.ok).length).toBe(2);
  });

  it('refuses bad bodies with catalogue errors', async () => {
    for (const body of [{}, { messages: [] }, { messages: [{ role: 'tool', content: 'x' }] }, { messages: [{ role: 'user', content: 'x'.repeat(8001) }] }, { messages: [{ role: 'user', content: 3 }] }]) {
      const res = await m.raw('POST', '/v1/openai/chat/completions', body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBeLessThan(500);
      expect(res.body.errorCode).toBe(777);
    }
    const res = await stream(member, { engineCode: member.engineCode, userId: member.userId, sceneId: 'bad scene!', message: 'x' });
    expect(res.json().errorCode).toBe(777);
  });

  it('never lets the key out: not in answers, the usage log or the operation log', async () => {
    const oplog = await engineDb(t.database.db, admin.engineCode).selectFrom('oplog').selectAll().execute();
    const usage = await engineDb(t.database.db, admin.engineCode).selectFrom('ai_usage').selectAll().execute();
    for (const text of [...answers, JSON.stringify(oplog), JSON.stringify(usage)]) expect(text).not.toContain(OPENAI_KEY);
  });

  it('refuses a provider on a private address unless the platform allows it', async () => {
    const strict = await createTestApp({ config: { outboundPrivate: false } });
    try {
      const owner = await registerPerson(strict.app, { userName: '管理员丁' });
      const o = orgClient(strict.app, owner);
      await o.post('/v1/ai/settings/save', { baseUrl: `${fake.url}/v1`, apiKey: OPENAI_KEY, chatModel: 'qwen-chat' });
      const before = fake.requests.length;
      const res = await call(strict.app, 'POST', '/v1/openai/chat/completions', { token: owner.token, engineCode: owner.engineCode, body: { messages: [{ role: 'user', content: '你好' }] } });
      expect(res.body.errorCode).toBe(420009);
      expect(fake.requests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});

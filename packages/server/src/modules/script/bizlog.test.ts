import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { call, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp } from '../../../test/form-helpers.ts';
import { insertBizLogs, type NewBizLog } from './bizlog.repo.ts';
import { bizLogRetentionSweep } from './bizlog-sweep.ts';

// GET /v1/toolkit/bizlog/list (docs/decisions/0118): newest first, filtered by app, form, level, time and text; an
// app's administrators and the engine's Administrators read it, others not; bad input answers 777 and changes nothing;
// the daily clean-up removes what is older than 30 days.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, otherApp: string;
const DAY = 86_400_000;
const now = Date.now();

const row = (app: string, more: Partial<NewBizLog>): NewBizLog => ({
  app_code: app, schema_code: 'F1', part: 'form-server', handler: 'onSubmit', level: 'info', message: '运行完成', line: null, duration_ms: 3, request_id: 'r1', user_id: null, ...more,
});

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  otherApp = (await createApp(a)).code as string;
  await insertBizLogs(t.database.db as Db, admin.engineCode, [
    row(appCode, { at: new Date(now - 3 * DAY), message: '三天前' }),
    row(appCode, { at: new Date(now - 2 * DAY), level: 'warn', message: '已拒绝：金额过大' }),
    row(appCode, { at: new Date(now - DAY), schema_code: 'F2', level: 'error', message: '运行出错：TypeError', line: 7 }),
    row(appCode, { at: new Date(now - 40 * DAY), message: '很久以前' }),
    row(otherApp, { at: new Date(now - DAY), message: '另一个应用' }),
  ]);
});
afterAll(() => t.close());

const list = (query: Record<string, string>, client = a) => client.get('/v1/toolkit/bizlog/list', query);
const messages = (r: { items: { message: string }[] }) => r.items.map((i) => i.message);

describe('the business log', () => {
  it('newest first, filtered by app, form, level, time and text, paged', async () => {
    expect(messages(await list({ appCode }))).toEqual(['运行出错：TypeError', '已拒绝：金额过大', '三天前', '很久以前']);
    expect(messages(await list({}))).toHaveLength(5);
    expect(messages(await list({ appCode, schemaCode: 'F2' }))).toEqual(['运行出错：TypeError']);
    expect(messages(await list({ appCode, level: 'warn' }))).toEqual(['已拒绝：金额过大']);
    expect(messages(await list({ appCode, from: new Date(now - 2.5 * DAY).toISOString(), to: new Date(now - 1.5 * DAY).toISOString() }))).toEqual(['已拒绝：金额过大']);
    expect(messages(await list({ appCode, text: '金额' }))).toEqual(['已拒绝：金额过大']);
    expect(messages(await list({ appCode, text: '%' }))).toEqual([]);
    const page = await list({ appCode, page: '2', pageSize: '3' });
    expect(page).toMatchObject({ total: 4, hasMore: false });
    expect(messages(page)).toEqual(['很久以前']);
    expect((await list({ appCode, schemaCode: 'F2' })).items[0]).toMatchObject({ appCode, part: 'form-server', handler: 'onSubmit', level: 'error', line: 7, durationMs: 3, requestId: 'r1' });
  });

  it('app administrators read their apps only; members who administer none are refused', async () => {
    const member = await addInvitedMember(t, admin, { name: '王五', authType: 2 });
    const m = nodeClient(t.app, member);
    expect((await m.raw('GET', '/v1/toolkit/bizlog/list', {})).body).toMatchObject({ successful: false, errorCode: 230005 });
    await grant(a, otherApp, member.userId, 'administrator');
    expect(messages(await list({}, m))).toEqual(['另一个应用']);
    expect(messages(await list({ appCode: otherApp }, m))).toEqual(['另一个应用']);
    expect((await m.raw('GET', '/v1/toolkit/bizlog/list', { appCode })).body.successful).toBe(false);
  });

  it('bad input answers 777 and changes nothing', async () => {
    const before = await list({});
    const bad: Record<string, string>[] = [{ level: 'debug' }, { from: 'yesterday' }, { page: '0' }, { pageSize: '201' }, { text: 'x'.repeat(101) }, { other: '1' }];
    for (const query of bad) {
      const r = await call(t.app, 'GET', '/v1/toolkit/bizlog/list', { token: admin.token, engineCode: admin.engineCode, query });
      expect(r.body, JSON.stringify(query)).toMatchObject({ successful: false, errorCode: 777 });
    }
    expect(await list({})).toEqual(before);
  });

  it('the daily clean-up removes rows older than 30 days, once a day', async () => {
    const sweep = bizLogRetentionSweep();
    expect(await sweep.run(t.database.db as Db, new Date(now))).toBeGreaterThanOrEqual(1);
    expect(messages(await list({ appCode }))).not.toContain('很久以前');
    await insertBizLogs(t.database.db as Db, admin.engineCode, [row(appCode, { at: new Date(now - 31 * DAY), message: '又一条旧的' })]);
    expect(await sweep.run(t.database.db as Db, new Date(now + 1000))).toBe(0);
    expect(await sweep.run(t.database.db as Db, new Date(now + DAY))).toBe(1);
    expect(await engineDb(t.database.db as Db, admin.engineCode).selectFrom('biz_logs').select('id').where('message', '=', '又一条旧的').execute()).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { E2E_CODE, freePort, ROOT, startPlatform, waitForHttp } from './global-setup.ts';
import { nginxBin, startNginx } from './nginx.ts';
import { browser, uniqueMobile } from './fixtures.ts';
import { screenshot } from './browser.ts';
import { call, memberSession, registerEngine, signedInPage, type Admin } from './session.ts';

/**
 * Issue 20: two server processes on one PostgreSQL behind nginx (from Debian, started here), as a deployment with
 * several processes runs. The approver's browser talks to nginx, which spreads its requests over both processes; the
 * answer of its live stream says which process holds it (x-tritium-instance), and the applicant submits straight to
 * the other one. Only the database joins the two (NOTIFY from one, LISTEN in the other): the approver's bell and to-do
 * badge change without a reload. Needs a PostgreSQL server (TEST_DATABASE_URL, as CI has) and nginx (.ci/run installs
 * it); skipped without them.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl || !nginxBin)('live push across two server processes behind nginx', () => {
  const database = `tritium_e2e_live_${process.pid}_${Date.now().toString(36)}`;
  const children: ChildProcess[] = [];
  const dataDirs: string[] = [];
  const bases: string[] = [];
  let front: string;
  let admin: pg.Client;
  let applicant: Admin, approver: Admin & { userId: string };
  let approverPage: Page;

  async function platform(databaseUrl: string): Promise<string> {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-e2e-live-'));
    dataDirs.push(dataDir);
    const child = startPlatform({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TRITIUM_DATA_DIR: dataDir,
      TRITIUM_WEB_DIST: process.env.TRITIUM_WEB_DIST ?? path.join(ROOT, 'packages/web/dist'),
      TRITIUM_FIXED_VERIFY_CODE: E2E_CODE,
      TRITIUM_JWT_SECRET: 'two-processes-secret-0123456789abcdef',
      TRITIUM_SECRET_KEY: 'two-processes-key-0123456789abcdef',
      TRITIUM_RATE_LIMIT: 'off',
    });
    children.push(child);
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/v1/register/getscalelist`, child, 180_000);
    return base;
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${database}`);
    const url = new URL(serverUrl!);
    url.pathname = `/${database}`;
    // The first process migrates the new database; the second finds it ready.
    bases.push(await platform(url.toString()));
    bases.push(await platform(url.toString()));
    const [first] = bases;
    applicant = await registerEngine(first!, uniqueMobile(), '韩申请', '北辰仓储有限公司');
    await call(first!, applicant, 'POST', '/v1/functionnode', { nodeType: 190, code: 'ops', displayName: '仓储运营' });
    await call(first!, applicant, 'POST', '/v1/functionnode', { nodeType: 210, code: 'outbound', appCode: 'ops', displayName: '出库申请' });
    const loaded = await call<{ draft: { version: number } }>(first!, applicant, 'POST', '/v1/formdesign/load', { schemaCode: 'outbound' });
    const definition = { attributes: { displayName: '出库申请', nameSchema: '{Title}' }, controls: [{ type: 'textBox', code: 'Title', options: { displayName: '出库事项' } }] };
    const saved = await call<{ version: number }>(first!, applicant, 'POST', '/v1/formdesign/save', { schemaCode: 'outbound', baseVersion: loaded.draft.version, definition });
    await call(first!, applicant, 'POST', '/v1/formdesign/publish', { schemaCode: 'outbound', version: saved.version, confirm: [] });
    approver = await memberSession(first!, applicant, '秦审批', uniqueMobile());
    await call(first!, applicant, 'POST', '/v1/functionnode/auth/set', { code: 'outbound', unitId: approver.userId, permission: 'access' });
    const template = {
      activities: [
        { type: 'Start', code: 'Start', name: '发起' },
        { type: 'Approve', code: 'Check', name: '仓库审批', participants: { sources: [{ type: 'users', ids: [approver.userId] }] } },
        { type: 'End', code: 'End', name: '结束' },
      ],
      routes: [
        { from: 'Start', to: 'Check' },
        { from: 'Check', to: 'End' },
      ],
    };
    await call(first!, applicant, 'POST', '/v1/workflow/template/save', { schemaCode: 'outbound', template });
    await call(first!, applicant, 'POST', '/v1/workflow/template/publish', { schemaCode: 'outbound' });
    const nginxDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-e2e-nginx-'));
    dataDirs.push(nginxDir);
    const nginx = await startNginx(nginxDir, bases);
    children.push(nginx.child);
    front = nginx.base;
    approverPage = await signedInPage(await browser(), front, approver, { width: 1366, height: 860 });
  }, 400_000);

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    }
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    await admin?.query(`drop database if exists ${database} with (force)`);
    await admin?.end();
  });

  it('the approver, behind nginx, sees at once the to-do the applicant submitted to the process not holding their stream', async () => {
    const streaming = approverPage.waitForResponse((r) => r.url().startsWith(front) && r.url().includes('/v1/toolkit/live') && r.status() === 200, { timeout: 30_000 });
    await approverPage.goto('/workbench');
    await approverPage.getByRole('button', { name: '消息', exact: true }).waitFor();
    const holder = (await streaming).headers()['x-tritium-instance'];
    const instances = await Promise.all(bases.map(async (b) => (await fetch(`${b}/v1/register/getscalelist`)).headers.get('x-tritium-instance')));
    expect(instances).toContain(holder);
    const other = bases[instances.findIndex((id) => id !== holder)]!;
    const record = await call<{ objectId: string }>(other, applicant, 'POST', '/v1/form/action/execute', { schemaCode: 'outbound', actionCode: 'Save', values: { Title: '托盘 40 个' } });
    const started = Date.now();
    await call(other, applicant, 'POST', '/v1/workflow/instance/start', { schemaCode: 'outbound', objectId: record.objectId, submit: true });
    await approverPage.getByRole('button', { name: '消息 1' }).waitFor();
    const elapsed = Date.now() - started;
    await approverPage.getByRole('button', { name: '流程中心 1' }).waitFor();
    await screenshot(approverPage, 'live-two-processes');
    console.log(`live push across processes behind nginx: the bell changed ${elapsed} ms after the submit on the other process`);
    expect(approverPage.url().startsWith(front)).toBe(true);
    await approverPage.getByRole('button', { name: '消息 1' }).click();
    await approverPage.getByRole('dialog', { name: '消息中心' }).getByRole('button', { name: '待办：托盘 40 个' }).click();
    await expect.poll(() => approverPage.url()).toContain(`/form/open/outbound/${record.objectId}`);
  });
});

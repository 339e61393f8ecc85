import { beforeAll, describe, expect, it } from 'vitest';
import { newPage, screenshot } from './browser.ts';
import { api, baseUrl, browser, engineWithAdmin, uniqueMobile, type Admin } from './fixtures.ts';

/**
 * Issue 25, external login codes (docs/decisions/0073): a system the organisation trusts asks the open API for a
 * one-use code for a member and sends them to the link it answers; the browser signs them in at once and lands in the
 * workbench. The same link a second time is refused, and the page says why.
 */
let admin: Admin;
let memberId: string;
let secret: string;

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '许南星', engineName: '白鹭物流有限公司' });
  const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
  memberId = (await api<{ id: string }>(admin, 'POST', '/v1/org/user/create', { name: '乔一帆', mobile: uniqueMobile(), departmentIds: [company.id] })).id;
  secret = (await api<{ value: string }>(admin, 'POST', '/v1/engine/secret/create', { name: '门户' })).value;
});

async function loginLink(): Promise<string> {
  const res = await fetch(`${baseUrl()}/OpenApi/Invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', EngineCode: admin.engineCode, EngineSecret: secret },
    body: JSON.stringify({ ActionName: 'CreateExternalLoginCode', UserId: memberId }),
  });
  const body = (await res.json()) as { Successful: boolean; ReturnData: { LoginPath: string } };
  if (!body.Successful) throw new Error(JSON.stringify(body));
  return body.ReturnData.LoginPath;
}

describe('external login codes in the browser', () => {
  it('a link with a code signs the member in at once; the same link again is refused with the reason', async () => {
    const link = await loginLink();
    const page = await newPage(await browser(), baseUrl());
    await page.goto(link);
    await page.waitForURL('**/workbench**');
    await expect.poll(() => page.getByText('乔一帆').count()).toBeGreaterThan(0);

    const again = await newPage(await browser(), baseUrl());
    await again.goto(link);
    await expect.poll(() => again.getByText('安全凭证已过期').count()).toBeGreaterThan(0);
    await screenshot(again, 'external-login-used');
  });
});

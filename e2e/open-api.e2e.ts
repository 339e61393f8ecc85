import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api as callAs, appWithPublishedForm, baseUrl, engineWithAdmin, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 8, the open API (docs/decisions/0021): an Administrator creates a secret in the admin console, sees it whole
 * once, a third-party call to /OpenApi/Invoke with it reads the form's records, then the secret is revoked and the
 * same call is refused. Screenshots of the page, the one-time dialog and the list after revoking.
 */
let page: Page;
let admin: Admin;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);

async function invoke(engineCode: string, secret: string, payload: unknown) {
  const response = await fetch(`${baseUrl()}/OpenApi/Invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', EngineCode: engineCode, EngineSecret: secret },
    body: JSON.stringify(payload),
  });
  return { status: response.status, body: (await response.json()) as { Successful: boolean; ErrorCode: number; ReturnData: any } };
}

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '周远', engineName: '远航物流有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'ship', displayName: '运输管理' },
    form: { code: 'waybill', displayName: '运单' },
    controls: [{ type: 'textBox', code: 'Consignee', options: { displayName: '收货人' } }],
  });
  for (const name of ['陈晨', '李雷']) await api('POST', '/v1/form/action/execute', { schemaCode: 'waybill', actionCode: 'Submit', values: { Consignee: name } });
  page = await pageOf(admin, { width: 1366, height: 800 });
});

describe('open API secrets in the admin console', () => {
  it('creates a secret shown once, calls Invoke with it, revokes it', async () => {
    await page.goto('/admin/open-api');
    await page.getByRole('heading', { name: '开放接口' }).waitFor();
    await expect.poll(() => page.getByText(admin.engineCode, { exact: true }).count()).toBe(1);
    await screenshot(page, 'open-api-empty');

    await page.getByRole('button', { name: /新建密钥/ }).click();
    await page.getByLabel('用途').fill('仓储系统同步');
    await page.getByRole('dialog').getByRole('button', { name: /创\s*建/ }).click();
    const shown = page.getByRole('dialog').filter({ hasText: '密钥已创建' });
    await shown.waitFor();
    const secret = (await shown.locator('code').first().innerText()).trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await screenshot(page, 'open-api-created');
    await shown.getByRole('button', { name: '我已保存' }).click();
    await shown.waitFor({ state: 'detached' });
    // The list shows it masked only.
    const row = page.getByRole('row').filter({ hasText: '仓储系统同步' });
    await expect.poll(() => row.innerText()).toContain(`${secret.slice(0, 4)}…${secret.slice(-4)}`);
    expect(await page.content()).not.toContain(secret);

    const read = await invoke(admin.engineCode, secret, { ActionName: 'LoadBizObjects', SchemaCode: 'waybill', Filter: '{"FromRowNum":0,"ToRowNum":10,"RequireCount":true,"SortByCollection":[{"ItemName":"CreatedTime","Direction":"Ascending"}]}' });
    expect(read.body.Successful).toBe(true);
    expect(read.body.ReturnData.TotalCount).toBe(2);
    expect(read.body.ReturnData.BizObjectArray.map((r: { Consignee: string }) => r.Consignee)).toEqual(['陈晨', '李雷']);
    const created = await invoke(admin.engineCode, secret, { ActionName: 'CreateBizObject', SchemaCode: 'waybill', BizObject: '{"Consignee":"韩梅"}', IsSubmit: 'true' });
    expect(created.body.Successful).toBe(true);

    await page.reload();
    await expect.poll(() => row.innerText()).toContain('有效');
    await row.getByRole('button', { name: '撤销 仓储系统同步' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: /撤\s*销/ }).click();
    await expect.poll(() => row.innerText()).toContain('已撤销');
    await screenshot(page, 'open-api-revoked');

    const refused = await invoke(admin.engineCode, secret, { ActionName: 'LoadBizObjects', SchemaCode: 'waybill' });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ Successful: false, ErrorCode: 320001 });
  });
});

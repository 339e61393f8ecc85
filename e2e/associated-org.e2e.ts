import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api, baseUrl, engineWithAdmin, pageOf, pickInOrgPicker, switchEngineTo, uniqueMobile, type Admin } from './fixtures.ts';
import { memberSession } from './session.ts';

/**
 * Issue 25, associated organisations (docs/decisions/0091): the host's administrator creates an invitation link in
 * the admin console; the partner's administrator opens it (/entry/ass-org), accepts with their organisation and
 * chooses a member; that member switches into the host, marked 外部; ending the association refuses them at once.
 */
let host: Admin, partner: Admin, worker: Admin & { userId: string };
let hostPage: Page, partnerPage: Page;

beforeAll(async () => {
  host = await engineWithAdmin({ userName: '严峻', engineName: '宿主精密制造' });
  partner = await engineWithAdmin({ userName: '方圆', engineName: '甲方供应链' });
  worker = await memberSession(baseUrl(), partner, '供方业务员', uniqueMobile());
  hostPage = await pageOf(host, { width: 1366, height: 800 });
  partnerPage = await pageOf(partner, { width: 1366, height: 800 });
});


describe('associated organisations in the browser', () => {
  let link = '';

  it('the host creates an invitation link in the admin console', async () => {
    await hostPage.goto('/admin/associated-org');
    await hostPage.getByRole('heading', { name: '关联组织' }).waitFor();
    await hostPage.getByText('还没有关联组织').waitFor();
    await hostPage.getByRole('button', { name: /生成邀请链接/ }).click();
    const dialog = hostPage.getByRole('dialog').filter({ hasText: '邀请链接已生成' });
    await dialog.waitFor();
    link = (await dialog.locator('code').first().innerText()).trim();
    expect(link).toMatch(new RegExp(`^${baseUrl()}/entry/ass-org\\?associatedCode=[A-Za-z0-9_-]+$`));
    await screenshot(hostPage, 'associated-org-link');
    await dialog.getByRole('button', { name: '完成' }).click();
    await expect.poll(() => hostPage.getByRole('row').filter({ hasText: '待接受' }).count()).toBe(1);
  });

  it('the partner accepts on /ass-org and chooses a member', async () => {
    await partnerPage.goto(link);
    await partnerPage.getByText('「宿主精密制造」邀请你的组织成为关联组织').waitFor();
    expect(await partnerPage.getByRole('radio', { name: '甲方供应链' }).isChecked()).toBe(true);
    await screenshot(partnerPage, 'associated-org-accept');
    await partnerPage.getByRole('button', { name: '接受邀请并关联' }).click();
    await partnerPage.getByText('已与「宿主精密制造」关联').waitFor();
    await screenshot(partnerPage, 'associated-org-accepted');

    await partnerPage.getByRole('button', { name: '选择参与的成员' }).click();
    await partnerPage.waitForURL('**/admin/associated-org');
    const row = partnerPage.getByRole('row').filter({ hasText: '宿主精密制造' });
    await row.getByRole('button', { name: '选择成员' }).click();
    const members = partnerPage.getByRole('dialog').filter({ hasText: '参与关联的成员' });
    await members.getByRole('button', { name: '选择成员' }).click();
    await pickInOrgPicker(partnerPage.getByRole('dialog', { name: '选择人员' }), '供方业务员');
    await members.getByRole('button', { name: /加\s*入/ }).click();
    await expect.poll(() => members.getByRole('row').filter({ hasText: '供方业务员' }).count()).toBe(1);
    await screenshot(partnerPage, 'associated-org-members');

    // The host sees the partner, its department under 外部组织 and the member.
    await hostPage.reload();
    await expect.poll(() => hostPage.getByRole('row').filter({ hasText: '甲方供应链' }).innerText()).toContain('已关联');
    await screenshot(hostPage, 'associated-org-host-list');
  });

  it('the member switches into the host (marked 外部) and is refused once the association ends', async () => {
    const page = await pageOf(worker, { width: 1366, height: 800 });
    await page.goto('/workbench');
    await switchEngineTo(page, '宿主精密制造');
    await page.getByLabel('切换组织').click();
    // The list's entry of the host carries the 外部 tag (antd's option element is titled with the engine name).
    await expect.poll(async () => (await page.getByTitle('宿主精密制造', { exact: true }).allInnerTexts()).join(' ')).toContain('外部');
    await screenshot(page, 'associated-org-switched');
    await page.keyboard.press('Escape');

    const list = await api<{ list: { id: string; state: string }[] }>(host, 'GET', '/v1/org/associated/list');
    await api(host, 'POST', '/v1/org/associated/end', { id: list.list.find((a) => a.state === 'active')!.id });
    const refused = await fetch(`${baseUrl()}/v1/engine/current`, { headers: { authorization: `Bearer ${worker.token}`, enginecode: host.engineCode } });
    expect(refused.status).toBe(403);
    await page.context().close();
  });
});

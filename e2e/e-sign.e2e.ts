import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PDFDocument } from 'pdf-lib';
import { startTsignFake, TSIGN, type TsignFake } from '../packages/server/test/tsign-fake.ts';
import { screenshot } from './browser.ts';
import { api, appWithPublishedForm, baseUrl, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 44 (docs/decisions/0123, e-signature), must show: e-signature end to end with two signers through every signer
 * state. Before the plugin is installed the control says 插件未安装. With e签宝 installed (a fake that checks every
 * request's signature and signs its callbacks), the initiator starts a flow on a record (发起签署, signers picked in
 * order); the first signer opens 去签署 on the record, signs on the provider's page; the second refuses: the flow is
 * 已拒签. A second flow: the first signs for the organisation (待用印审批 until the seal is approved), the second signs:
 * 已完成, and the signed PDF is in the record's attachment control.
 */
const APP = { code: 'contracts', displayName: '合同管理' };
const FORM = { code: 'sales_contract', displayName: '销售合同' };

let admin: Admin;
let page: Page;
let first: { member: Admin & { userId: string }; page: Page };
let second: { member: Admin & { userId: string }; page: Page };
let fake: TsignFake;

const save = async (title: string) => (await api<{ objectId: string }>(admin, 'POST', '/v1/form/action/execute', { schemaCode: FORM.code, actionCode: 'Save', values: { Title: title, Amount: 128000 } })).objectId;
const recordOf = async (objectId: string) => (await api<{ values: Record<string, any> }>(admin, 'POST', '/v1/form/loaddata', { schemaCode: FORM.code, objectId })).values;
const flowState = (p: Page) => p.getByTestId('esign-flow-state').first();
const signerStates = async (p: Page) => (await p.getByTestId('esign-signer').allTextContents()).map((text) => /(等待签署|签署中|已签署|待用印审批|已拒签)/.exec(text)?.[1] ?? '');
const messagesGone = (p: Page) => expect.poll(() => p.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);

beforeAll(async () => {
  fake = await startTsignFake();
  admin = await engineWithAdmin({ userName: '周明远', engineName: '远航贸易有限公司' });
  await appWithPublishedForm(admin, {
    app: APP,
    form: FORM,
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '合同名称' } },
      { type: 'number', code: 'Amount', options: { displayName: '合同金额', decimalPlaces: 2 } },
      { type: 'eSign', code: 'Sign', options: { displayName: '合同签署', attachmentCode: 'SignedFiles' } },
      { type: 'attachment', code: 'SignedFiles', options: { displayName: '已签合同' } },
    ],
  });
  page = await pageOf(admin);
  first = (await memberPage(admin, '王经理')) as typeof first;
  second = (await memberPage(admin, '李思远')) as typeof second;
  for (const who of [first, second]) await api(admin, 'POST', '/v1/functionnode/auth/set', { code: APP.code, unitId: who.member.userId, permission: 'access' });
});
afterAll(() => fake?.close());

/** Opens the record's form and waits for the e-sign control to have answered. */
async function openRecord(p: Page, objectId: string) {
  await p.goto(`/form/open/${FORM.code}/${objectId}`);
  await expect.poll(() => p.getByText('合同签署').count(), { timeout: 30_000 }).toBeGreaterThan(0);
}

/** 发起签署 with the two members in order (the first for the organisation when asked). */
async function startSigning(objectId: string, firstForOrganization: boolean, shot?: string) {
  await openRecord(page, objectId);
  await page.getByRole('button', { name: /发起签署|重新发起签署/ }).click();
  const dialog = page.getByRole('dialog', { name: '发起签署' });
  await dialog.getByRole('button', { name: '选择签署人' }).click();
  const picker = page.getByRole('dialog', { name: '选择人员' });
  for (const name of ['王经理', '李思远']) {
    await picker.getByLabel('搜索', { exact: true }).fill(name);
    await picker.getByRole('group', { name: '搜索结果' }).getByRole('checkbox', { name: new RegExp(`^${name}`) }).check();
    await expect.poll(() => picker.getByRole('list', { name: '已选列表' }).getByText(name, { exact: true }).count()).toBe(1);
  }
  await picker.getByRole('button', { name: '确定' }).click();
  await expect.poll(() => dialog.getByTestId('esign-signer-row').allTextContents()).toEqual([expect.stringContaining('第 1 位王经理'), expect.stringContaining('第 2 位李思远')]);
  if (firstForOrganization) await dialog.getByTestId('esign-signer-row').first().getByRole('checkbox', { name: '企业签署（需用印审批）' }).check();
  if (shot) await screenshot(page, shot);
  await dialog.getByRole('button', { name: '发送给签署人' }).click();
  await expect.poll(() => flowState(page).textContent(), { timeout: 60_000 }).toBe('签署中');
  expect(await signerStates(page)).toEqual(['签署中', '等待签署']);
}

/** The signer opens the record, follows 去签署 to the provider's page and presses a button there. */
async function actOnProviderPage(who: { page: Page }, objectId: string, action: '签署' | '拒签' | '用印审批通过', shot?: string, reason?: string) {
  await openRecord(who.page, objectId);
  const link = who.page.getByRole('link', { name: /去签署|已签署，等待企业用印审批/ });
  await expect.poll(() => link.count(), { timeout: 30_000 }).toBe(1);
  const href = (await link.getAttribute('href'))!;
  expect(href.startsWith(fake.url)).toBe(true);
  await who.page.goto(href);
  if (reason) await who.page.getByLabel('拒签原因').fill(reason);
  if (shot) await screenshot(who.page, shot);
  await who.page.getByRole('button', { name: action }).click();
  await expect.poll(() => who.page.locator('#state').textContent()).not.toContain('待签署');
}

describe('e-signature with two signers', () => {
  let refusedId: string;
  let signedId: string;

  it('says 插件未安装 until an e-sign plugin is installed', async () => {
    refusedId = await save('设备采购合同 A-001');
    await openRecord(page, refusedId);
    await expect.poll(() => page.getByTestId('esign-not-installed').textContent(), { timeout: 30_000 }).toBe('插件未安装');
    await screenshot(page, 'e-sign-0-not-installed');
    await api(admin, 'POST', '/v1/plugin/install', { code: 'esign-tsign', settings: { baseUrl: fake.url, appId: TSIGN.appId }, secrets: { appSecret: TSIGN.appSecret } });
  });

  it('the initiator sends the record’s PDF to two signers in order', async () => {
    await startSigning(refusedId, false, 'e-sign-1-start-dialog');
    await messagesGone(page);
    await screenshot(page, 'e-sign-2-running');
    expect(fake.refused).toEqual([]);
  });

  it('the first signs on the provider’s page; the second refuses: 已拒签', async () => {
    await actOnProviderPage(first, refusedId, '签署', 'e-sign-3-provider-page');
    await openRecord(page, refusedId);
    await expect.poll(() => signerStates(page), { timeout: 30_000 }).toEqual(['已签署', '签署中']);
    await actOnProviderPage(second, refusedId, '拒签', undefined, '付款条款需修改');
    await openRecord(page, refusedId);
    await expect.poll(() => flowState(page).textContent(), { timeout: 30_000 }).toBe('已拒签');
    expect(await signerStates(page)).toEqual(['已签署', '已拒签']);
    await expect.poll(() => page.getByText('原因：付款条款需修改').count()).toBeGreaterThan(0);
    await page.getByText('签署记录').click();
    await screenshot(page, 'e-sign-4-refused');
    expect((await recordOf(refusedId)).Sign).toMatchObject({ state: 'Refuse' });
    expect(fake.flows.refusedCallbacks).toEqual([]);
  });

  it('a second flow: the first signs for the organisation (待用印审批), the seal is approved, the second signs', async () => {
    signedId = await save('年度框架协议 B-017');
    await startSigning(signedId, true);
    await actOnProviderPage(first, signedId, '签署');
    await openRecord(page, signedId);
    await expect.poll(() => signerStates(page), { timeout: 30_000 }).toEqual(['待用印审批', '等待签署']);
    await screenshot(page, 'e-sign-5-wait-for-approval');
    await actOnProviderPage(first, signedId, '用印审批通过', 'e-sign-6-seal-approval');
    await actOnProviderPage(second, signedId, '签署');
  });

  it('the flow is 已完成 and the signed PDF is on the record', async () => {
    await openRecord(page, signedId);
    await expect.poll(() => flowState(page).textContent(), { timeout: 30_000 }).toBe('已完成');
    expect(await signerStates(page)).toEqual(['已签署', '已签署']);
    const values = await recordOf(signedId);
    expect(values.Sign).toMatchObject({ state: 'Finish' });
    expect(values.SignedFiles).toHaveLength(1);
    expect(values.SignedFiles[0].name).toMatch(/已签署.*\.pdf$/);
    await expect.poll(() => page.getByText(values.SignedFiles[0].name).count()).toBeGreaterThan(0);
    await page.getByText('签署记录').click();
    await screenshot(page, 'e-sign-7-finished');
    // The file on the record is the provider's signed PDF (the stamp page names both signers).
    const { list } = await api<{ list: { url: string }[] }>(admin, 'POST', '/v1/file/urls/byfileids', { fileIds: [values.SignedFiles[0].id] });
    const pdf = await PDFDocument.load(Buffer.from(await (await fetch(`${baseUrl()}${list[0]!.url}`)).arrayBuffer()));
    expect(pdf.getSubject()).toBe(`signed by ${[...fake.flows.flows.values()].at(-1)!.signers.map((s) => s.mobile).join(',')}`);
  });

  it('the designer’s e-sign panel chooses the print template and the attachment control', async () => {
    await page.goto(`/form/designer?schemaCode=${FORM.code}`);
    const canvas = page.getByRole('region', { name: '画布' });
    await canvas.getByRole('listitem', { name: '合同签署' }).first().click();
    const properties = page.getByRole('complementary', { name: '属性' });
    await expect.poll(() => properties.getByText('已签合同（SignedFiles）').count()).toBe(1);
    await properties.getByLabel('签署的打印模板', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '表单布局' }).first().click();
    await screenshot(page, 'e-sign-8-designer-panel');
    await page.getByRole('button', { name: '发布' }).click();
    await expect.poll(() => page.getByText(/已发布/).count()).toBeGreaterThan(0);
    const schema = await api<unknown>(admin, 'POST', '/v1/formdesign/load', { schemaCode: FORM.code });
    expect(JSON.stringify(schema)).toContain('"templateCode":"formLayout"');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { OPENAI_KEY, startOpenAiFake, type OpenAiFake } from '../packages/server/test/openai-fake.ts';
import { screenshot } from './browser.ts';
import { api, appWithPublishedForm, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 45 (docs/decisions/0124), through the screens: the administrator sets up an OpenAI-compatible provider (a fake
 * that checks the key and streams its answer in pieces) on the console's AI 设置 page and tests it; a member opens the
 * AI assistant from the top bar and watches the answer grow piece by piece; the page shows the calls and the credit
 * left; with the credit used up, the next question is refused in words and the assistant's button goes.
 */
let fake: OpenAiFake;
let admin: Admin;
let page: Page;
let memberP: Page;
const FORM = { code: 'expense_claim', displayName: '报销单' };
const records: Record<string, string> = {};
/** A 1×1 PNG: the fake model does not look at the picture; the platform must send it as one. */
const RECEIPT_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  fake = await startOpenAiFake();
  admin = await engineWithAdmin({ userName: '沈知远', engineName: '远山贸易有限公司' });
  page = await pageOf(admin);
  const { member, page: mp } = await memberPage(admin, '林晚');
  memberP = mp;
  await appWithPublishedForm(admin, {
    app: { code: 'expense', displayName: '费用管理' },
    form: FORM,
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '事由' } },
      { type: 'dropDown', code: 'Region', options: { displayName: '区域', defaultItems: ['华东', '华南'] } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
    ],
  });
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: 'expense', unitId: member.userId, permission: 'access' });
  for (const [title, region, amount] of [['上海客户拜访', '华东', 1200.5], ['杭州展会布展', '华东', 3800], ['广州出差', '华南', 990]] as const) {
    const saved = await api<{ objectId: string }>(admin, 'POST', '/v1/form/action/execute', { schemaCode: FORM.code, actionCode: 'Submit', values: { Title: title, Region: region, Amount: amount } });
    records[title] = saved.objectId;
  }
});
afterAll(() => fake?.close());

const messagesGone = (p: Page) => expect.poll(() => p.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);

describe('the administrator sets up AI', () => {
  it('saves an OpenAI-compatible provider and tests it', async () => {
    await page.goto('/admin/ai');
    await page.getByLabel('接口地址').fill(`${fake.url}/v1`);
    await page.getByLabel('API Key').fill(OPENAI_KEY);
    await page.getByLabel('对话模型').fill('qwen-plus');
    await page.getByLabel('视觉模型').fill('qwen-vl');
    await screenshot(page, 'ai-1-settings');
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => page.getByText('已保存').count()).toBe(1);
    await expect.poll(() => page.getByLabel('API Key').getAttribute('placeholder')).toBe('已设置，留空则不修改');
    await page.getByRole('button', { name: '测试连接' }).click();
    await expect.poll(() => page.getByText(/^连接正常：qwen-plus 回复“收到：/).count()).toBe(1);
    expect(fake.requests.at(-1)!.authorization).toBe(`Bearer ${OPENAI_KEY}`);
  });
});

describe('a member asks the assistant', () => {
  it('the answer appears piece by piece', async () => {
    fake.chunkDelayMs = 120;
    fake.script.push({ content: '您好，我是组织的 AI 助手。上个月华东区的报销合计需要查询报销表单后才能回答。' });
    await memberP.goto('/workbench');
    await memberP.getByRole('button', { name: 'AI 助手' }).click();
    const drawer = memberP.getByRole('dialog', { name: 'AI 助手' });
    await drawer.getByRole('textbox').fill('你好，介绍一下你自己');
    await drawer.getByRole('textbox').press('Enter');
    const answer = drawer.getByTestId('turn-assistant').last();
    // Seen part-way: some text, not yet all of it, while 停止 is offered.
    await expect.poll(async () => {
      const text = (await answer.textContent()) ?? '';
      return text.length > 0 && !text.endsWith('才能回答。');
    }).toBe(true);
    await expect.poll(() => drawer.getByRole('button', { name: '停止' }).count()).toBe(1);
    await screenshot(memberP, 'ai-2-streaming');
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toBe('您好，我是组织的 AI 助手。上个月华东区的报销合计需要查询报销表单后才能回答。');
    await expect.poll(() => drawer.getByRole('button', { name: '发送' }).count()).toBe(1);
    await screenshot(memberP, 'ai-3-answered');
    fake.chunkDelayMs = 0;
  });

  it('answers from a sum over the records the member may read, citing them', async () => {
    // The model (scripted) asks for the sum by a tool; the platform runs it as the member and cites the records.
    fake.script.push({ toolCalls: [{ id: 'call_1', name: 'aggregate', arguments: JSON.stringify({ schemaCode: FORM.code, filters: [{ field: 'Region', operator: 'Equal', value: '华东' }], field: 'Amount' }) }] });
    fake.script.push({ content: '华东区的报销总额为 5,000.50 元（2 条）。' });
    const drawer = memberP.getByRole('dialog', { name: 'AI 助手' });
    await drawer.getByRole('button', { name: '新对话' }).click();
    await drawer.getByRole('textbox').fill('上个月华东区的报销总额是多少');
    await drawer.getByRole('textbox').press('Enter');
    const answer = drawer.getByTestId('turn-assistant').last();
    await expect.poll(() => answer.textContent()).toContain('华东区的报销总额为 5,000.50 元');
    expect(await answer.textContent()).toContain('已统计数据');
    const links = answer.getByTestId('turn-citations').getByRole('link');
    await expect.poll(() => links.count()).toBe(2);
    const hrefs = (await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).sort();
    expect(hrefs).toEqual([records['上海客户拜访'], records['杭州展会布展']].map((id) => `/form/open/${FORM.code}/${id}`).sort());
    // What the tool told the model came from the database: the sum of the two records.
    const told = (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')!;
    expect(JSON.parse(told.content)).toMatchObject({ count: 2, sum: 5000.5 });
    await screenshot(memberP, 'ai-3b-cited');
    // A citation opens the record.
    await memberP.goto(hrefs[0]!);
    await expect.poll(async () => (await memberP.getByRole('group', { name: '事由', exact: true }).textContent()) + (await memberP.getByRole('group', { name: '事由', exact: true }).getByRole('textbox').inputValue().catch(() => ''))).toMatch(/上海客户拜访|杭州展会布展/);
    await memberP.goto('/workbench');
    await memberP.getByRole('button', { name: 'AI 助手' }).click();
  });

  it('智能填单 fills a new record from a pasted message; nothing is saved until the member saves', async () => {
    fake.script.push({ content: JSON.stringify({ Title: '宁波客户拜访打车', Region: '华东', Amount: 86.5 }) });
    await memberP.goto(`/form/open/${FORM.code}`);
    await memberP.getByRole('button', { name: '智能填单' }).click();
    const dialog = memberP.getByRole('dialog', { name: '智能填单' });
    await dialog.getByRole('textbox').fill('老板，昨天去宁波拜访客户打车花了86.5元，华东区的，麻烦报一下');
    await screenshot(memberP, 'ai-6-smart-fill');
    await dialog.getByRole('button', { name: '识别并填入' }).click();
    const group = (name: string) => memberP.getByRole('group', { name, exact: true });
    await expect.poll(() => group('事由').getByRole('textbox').inputValue()).toBe('宁波客户拜访打车');
    await expect.poll(() => group('金额').getByRole('spinbutton').inputValue()).toMatch(/^86\.5/);
    await expect.poll(() => memberP.getByTestId('smart-filled').textContent()).toBe('AI 已填 3 项');
    // The model was asked with the form's fields and the region's items.
    const asked = fake.requests.at(-1)!.body as { response_format: { json_schema: { schema: { properties: Record<string, { enum?: unknown[] }> } } } };
    expect(asked.response_format.json_schema.schema.properties.Region!.enum).toEqual(['华东', '华南', null]);
    await messagesGone(memberP);
    await screenshot(memberP, 'ai-7-smart-filled');

    // A picture (a receipt's photo) read by the vision model fills what it shows.
    fake.script.push({ content: JSON.stringify({ Title: '宁波客户拜访打车', Region: '华东', Amount: 92 }) });
    await memberP.getByRole('button', { name: '智能填单' }).click();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: RECEIPT_PNG });
    await expect.poll(() => dialog.getByTestId('smart-fill-picture').textContent()).toBe('receipt.png');
    await dialog.getByRole('button', { name: '识别并填入' }).click();
    await expect.poll(() => group('金额').getByRole('spinbutton').inputValue()).toMatch(/^92/);
    const seen = fake.requests.at(-1)!.body as { model: string; messages: { content: unknown }[] };
    expect(seen.model).toBe('qwen-vl');
    expect(JSON.stringify(seen.messages[1]!.content)).toMatch(/data:image\/(png|jpeg|webp);base64,/);
    await memberP.goto('/workbench');
    await memberP.getByRole('button', { name: 'AI 助手' }).click();
  });

  it('the console shows the calls; with the credit used up the assistant says so and goes', async () => {
    await page.reload();
    // The first question, the cited one (two model calls: the tool's round and the answer), and two smart fills.
    await expect.poll(() => page.getByRole('row').filter({ hasText: '林晚' }).filter({ hasText: 'assistant' }).count()).toBe(3);
    await expect.poll(() => page.getByRole('row').filter({ hasText: '林晚' }).filter({ hasText: 'extraction' }).count()).toBe(2);
    await expect.poll(() => page.getByRole('row').filter({ hasText: '沈知远' }).filter({ hasText: 'test' }).count()).toBe(1);
    expect(await page.getByTestId('ai-remaining').textContent()).toBe('不限');
    await screenshot(page, 'ai-4-usage');

    // A credit of 1 token: the next question starts within it and passes it; the one after is refused in words.
    await page.getByLabel('额度（tokens）').fill('1');
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => page.getByTestId('ai-remaining').textContent()).toBe('1');
    await messagesGone(page);
    const drawer = memberP.getByRole('dialog', { name: 'AI 助手' });
    for (const question of ['第一个问题', '第二个问题']) {
      await drawer.getByRole('textbox').fill(question);
      await drawer.getByRole('textbox').press('Enter');
      await expect.poll(() => drawer.getByRole('button', { name: '发送' }).count()).toBe(1);
    }
    await expect.poll(() => drawer.getByTestId('turn-assistant').last().textContent()).toMatch(/AI 额度已用完（共 1 tokens）/);
    await screenshot(memberP, 'ai-5-credit-used-up');
    await memberP.goto('/workbench');
    await expect.poll(() => memberP.getByText('远山贸易有限公司').count()).toBeGreaterThan(0);
    await expect.poll(() => memberP.getByRole('button', { name: 'AI 助手' }).count()).toBe(0);
  });
});

// ── OCR on the machine and recognition templates (issue 45): scenarios go above this line ──

// ── an app from a description and a record drafted from a conversation (issue 45): scenarios go above this line ──

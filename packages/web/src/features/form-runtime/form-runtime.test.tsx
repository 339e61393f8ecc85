import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { changeLocale } from '../../lib/i18n.ts';
import { FormPage } from './pages/form-page.tsx';
import { refused, stubRuntime } from './test/runtime-fake.ts';

const PATH = '/form/open/:schemaCode/:objectId?';
const field = (name: string) => screen.getByRole('group', { name });

async function openNew(options: Parameters<typeof stubRuntime>[0] = {}) {
  const stub = stubRuntime(options);
  const user = userEvent.setup();
  const rendered = renderPage(PATH, <FormPage />, '/form/open/f_order');
  await screen.findByRole('form', { name: '订单' });
  return { ...stub, user, ...rendered };
}

describe('the form runtime', () => {
  it('checks on the client first: a required field and a text mode, nothing sent', async () => {
    const { user, callsTo } = await openNew();
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(within(field('标题')).getByRole('alert').textContent).toBe('请填写标题');
    await user.type(within(field('邮箱')).getByRole('textbox'), 'not-mail');
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(within(field('邮箱')).getByRole('alert').textContent).toBe('请输入正确的邮箱地址');
    expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(0);
    // Typing into a field clears its error.
    await user.type(within(field('标题')).getByRole('textbox'), '新单');
    expect(within(field('标题')).queryByRole('alert')).toBeNull();
  });

  it('checks in English on an English screen (docs/decisions/0028)', async () => {
    await changeLocale('en-US');
    const { user, callsTo } = await openNew();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(within(field('标题')).getByRole('alert').textContent).toBe('Fill in 标题');
    await user.type(within(field('邮箱')).getByRole('textbox'), 'not-mail');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(within(field('邮箱')).getByRole('alert').textContent).toBe('Enter a valid email address');
    expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(0);
  });

  it('submits the values and sub-table rows, then shows the saved record', async () => {
    const { user, callsTo, router } = await openNew();
    await user.type(within(field('标题')).getByRole('textbox'), '第一单');
    await user.type(within(field('金额')).getByRole('spinbutton'), '12.5');
    // The formula follows as the amount is typed.
    await waitFor(() => expect(within(field('两倍金额')).getByText('25.00')).toBeTruthy());
    await user.click(screen.getByRole('button', { name: /新增行/ }));
    await user.click(screen.getByRole('button', { name: /新增行/ }));
    await user.click(screen.getByRole('button', { name: /删除第2行/ }));
    const cell = within(screen.getByRole('group', { name: '明细' })).getByRole('textbox');
    await user.type(cell, '苹果');
    await user.click(screen.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(1));
    const body = callsTo('POST', '/v1/form/action/execute')[0].body as { actionCode: string; values: Record<string, unknown>; children: Record<string, unknown[]> };
    expect(body.actionCode).toBe('Submit');
    expect(body.values).toEqual({ Title: '第一单', Mail: '', Amount: 12.5, Reason: null, Level: null });
    expect(body.children).toEqual({ Items: [{ Goods: '苹果' }] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/form/open/f_order/0192aaaa-0000-7000-8000-000000000001'));
    // View mode: values as text, the status, the sequence number, the creator's name, the data log.
    await screen.findByText('生效');
    expect(within(field('金额')).getByText('12.50')).toBeTruthy();
    expect(within(field('单据号')).getByText('202600000001')).toBeTruthy();
    expect(await screen.findByText('金额：10.00 → 12.50')).toBeTruthy();
    expect(screen.getByRole('button', { name: '编辑' })).toBeTruthy();
  });

  it('a hide condition hides a field while it holds, and a hidden field is not required', async () => {
    const { user, callsTo } = await openNew();
    await user.type(within(field('标题')).getByRole('textbox'), '大单');
    expect(screen.queryByRole('group', { name: '大额原因' })).toBeNull();
    await user.type(within(field('金额')).getByRole('spinbutton'), '150');
    expect(await screen.findByRole('group', { name: '大额原因' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(within(field('大额原因')).getByRole('alert').textContent).toBe('请填写大额原因');
    expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(0);
  });

  it("shows the server's refusal next to the field it names", async () => {
    const { user } = await openNew({ execute: () => refused('values.Title', '订单编号已存在') });
    await user.type(within(field('标题')).getByRole('textbox'), '重复');
    await user.click(screen.getByRole('button', { name: '暂存' }));
    expect(await within(field('标题')).findByRole('alert')).toHaveProperty('textContent', '订单编号已存在');
  });

  it('a sub-table row refused by the server is marked in its cell', async () => {
    const { user } = await openNew({ execute: () => refused('children.Items.0.Goods', '最多200个字符') });
    await user.type(within(field('标题')).getByRole('textbox'), '单');
    await user.click(screen.getByRole('button', { name: /新增行/ }));
    await user.type(within(screen.getByRole('group', { name: '明细' })).getByRole('textbox'), 'x');
    await user.click(screen.getByRole('button', { name: '暂存' }));
    expect(await within(screen.getByRole('group', { name: '明细' })).findByText('最多200个字符')).toBeTruthy();
  });
});

import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { stubRuntime } from '../test/runtime-fake.ts';
import { RuntimeFormModal, type OpenForm } from './runtime-form-modal.tsx';
import type { Device } from '../fields/field-types.ts';

/** The form over a page as a list opens it; the `state` output shows its mode, or closed. */
async function openModal(start: OpenForm, device: Device = 'pc') {
  stubRuntime();
  const user = userEvent.setup();
  function Host() {
    const [open, setOpen] = useState<OpenForm | null>(start);
    return (
      <>
        <output aria-label="state">{open ? `${open.mode}` : 'closed'}</output>
        <RuntimeFormModal open={open} device={device} onChange={setOpen} />
      </>
    );
  }
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <WorkbenchProviders queryClient={queryClient}>
      <Host />
    </WorkbenchProviders>,
  );
  await screen.findByRole('form', { name: '订单' });
  return user;
}

const state = () => screen.getByLabelText('state').textContent;
const titleBox = () => within(screen.getByRole('group', { name: '标题' })).getByRole('textbox');
const QUESTION = '放弃未保存的修改？';
const confirmDialog = () => screen.findByRole('dialog', { name: QUESTION });
const noQuestion = () => waitFor(() => expect(screen.queryByRole('dialog', { name: QUESTION })).toBeNull());
// The form's own 关闭 in its footer, and the modal's ✕ (also named 关闭).
const closeButtons = () => screen.getAllByRole('button', { name: '关闭' });
const footerClose = () => closeButtons().find((button) => !button.closest('.ant-modal-close'))!;
const modalClose = () => closeButtons().find((button) => button.closest('.ant-modal-close'))!;

describe('closing a form with unsaved edits', () => {
  it('closes an untouched new form at once, on 关闭 and on Esc', async () => {
    let user = await openModal({ schemaCode: 'f_order', mode: 'Create' });
    await user.click(footerClose());
    expect(state()).toBe('closed');
    cleanup();

    user = await openModal({ schemaCode: 'f_order', mode: 'Create' });
    await user.click(titleBox());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(state()).toBe('closed'));
    expect(screen.queryByRole('dialog', { name: QUESTION })).toBeNull();
  });

  it('asks before 关闭 throws typed input away; 继续编辑 keeps it, 放弃 closes', async () => {
    const user = await openModal({ schemaCode: 'f_order', mode: 'Create' });
    await user.type(titleBox(), '第二单');
    await user.click(footerClose());
    const dialog = await confirmDialog();
    expect(within(dialog).getByText('本次填写或修改的内容尚未保存，放弃后无法恢复。')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '继续编辑' }));
    await noQuestion();
    expect(state()).toBe('Create');
    expect((titleBox() as HTMLInputElement).value).toBe('第二单');

    await user.click(footerClose());
    await user.click(within(await confirmDialog()).getByRole('button', { name: '放弃' }));
    await waitFor(() => expect(state()).toBe('closed'));
  });

  it('asks on Esc and on the modal ✕ too', async () => {
    const user = await openModal({ schemaCode: 'f_order', mode: 'Create' });
    await user.type(titleBox(), '第二单');
    await user.keyboard('{Escape}');
    await user.click(within(await confirmDialog()).getByRole('button', { name: '继续编辑' }));
    await noQuestion();
    expect(state()).toBe('Create');

    await user.click(modalClose());
    await user.click(within(await confirmDialog()).getByRole('button', { name: '放弃' }));
    await waitFor(() => expect(state()).toBe('closed'));
  });

  it('asks on Esc in the full-screen drawer of a phone', async () => {
    const user = await openModal({ schemaCode: 'f_order', mode: 'Create' }, 'phone');
    await user.type(titleBox(), '第二单');
    await user.keyboard('{Escape}');
    await user.click(within(await confirmDialog()).getByRole('button', { name: '放弃' }));
    await waitFor(() => expect(state()).toBe('closed'));
  });

  it('asks before 取消 drops the edits of a saved record, and shows it as saved once given up', async () => {
    const user = await openModal({ schemaCode: 'f_order', objectId: 'r1', mode: 'Edit' });
    await user.clear(titleBox());
    await user.type(titleBox(), '改过的标题');
    await user.click(screen.getByRole('button', { name: '取消' }));
    await user.click(within(await confirmDialog()).getByRole('button', { name: '放弃' }));
    await waitFor(() => expect(state()).toBe('View'));
    expect(await within(screen.getByRole('group', { name: '标题' })).findByText('第一单')).toBeTruthy();
  });

  it('closes without asking once the edits are saved', async () => {
    const user = await openModal({ schemaCode: 'f_order', objectId: 'r1', mode: 'Edit' });
    await user.type(titleBox(), '！');
    await user.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(state()).toBe('View'));
    await screen.findByRole('button', { name: '编辑' });
    await user.click(footerClose());
    expect(state()).toBe('closed');
    expect(screen.queryByRole('dialog', { name: QUESTION })).toBeNull();
  });
});

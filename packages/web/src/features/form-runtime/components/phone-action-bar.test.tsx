import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { stubFetch } from '../../../test/fetch-stub.ts';
import { findDialog } from '../../../test/find-dialog.ts';
import { splitPhoneActions, type FormAction } from './form-actions.tsx';
import { PhoneActionBar } from './phone-action-bar.tsx';

// A saved record being read, as its footer lists them: the six buttons that used to wrap on a phone.
function viewActions() {
  const pressed = vi.fn<(key: string) => void>();
  const action = (key: string, label: string, extra: Partial<FormAction> = {}): FormAction => ({ key, label, onPress: () => pressed(key), ...extra });
  const actions = [
    action('Remove', '删除', { danger: true, confirm: '确定删除这条数据吗？' }),
    action('Copy', '复制'),
    action('print', '打印'),
    action('share', '分享'),
    action('edit', '编辑', { primary: true }),
    action('close', '关闭', { main: true }),
  ];
  return { actions, pressed };
}

function renderBar(actions: FormAction[]) {
  stubFetch({});
  return render(
    <WorkbenchProviders queryClient={new QueryClient()}>
      <PhoneActionBar actions={actions} />
    </WorkbenchProviders>,
  );
}

describe("the phone's action bar", () => {
  it('keeps the main buttons in the bar and puts the rest behind 更多', async () => {
    const { actions, pressed } = viewActions();
    const user = userEvent.setup();
    renderBar(actions);
    const bar = screen.getByRole('toolbar', { name: '表单操作' });
    expect(within(bar).getAllByRole('button').map((button) => button.textContent?.replace(/\s/g, ''))).toEqual(['更多', '编辑', '关闭']);

    await user.click(within(bar).getByRole('button', { name: /更\s*多/ }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['删除', '复制', '打印', '分享']);
    await user.click(screen.getByRole('menuitem', { name: '复制' }));
    expect(pressed).toHaveBeenCalledWith('Copy');
  });

  it('asks before 删除 from the menu, and deletes only when confirmed', async () => {
    const { actions, pressed } = viewActions();
    const user = userEvent.setup();
    renderBar(actions);
    await user.click(screen.getByRole('button', { name: /更\s*多/ }));
    await user.click(await screen.findByRole('menuitem', { name: '删除' }));
    const dialog = await findDialog('确定删除这条数据吗？');
    expect(pressed).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(pressed).toHaveBeenCalledWith('Remove'));
  });

  it('shows every button, and no 更多, when three or fewer', () => {
    const { actions } = viewActions();
    renderBar(actions.slice(3));
    const bar = screen.getByRole('toolbar', { name: '表单操作' });
    expect(within(bar).getAllByRole('button').map((button) => button.textContent?.replace(/\s/g, ''))).toEqual(['分享', '编辑', '关闭']);
  });
});

describe('splitting the actions for a phone', () => {
  it('prefers the primary action, then the main ones, and keeps the footer order', () => {
    const { actions } = viewActions();
    const editing = [actions[1]!, { ...actions[4]!, key: 'save', main: true, primary: false }, { ...actions[4]!, key: 'submit' }, actions[5]!];
    const { shown, more } = splitPhoneActions(editing);
    expect(shown.map((a) => a.key)).toEqual(['save', 'submit']);
    expect(more.map((a) => a.key)).toEqual(['Copy', 'close']);
  });
});

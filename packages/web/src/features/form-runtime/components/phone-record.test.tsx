import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { ok } from '../../../test/fetch-stub.ts';
import { stubRuntime } from '../test/runtime-fake.ts';
import type { Device } from '../fields/field-types.ts';
import { RuntimeForm } from './runtime-form.tsx';

const buttonsOf = (element: HTMLElement) => within(element).getAllByRole('button').map((button) => button.textContent?.replace(/\s/g, ''));

async function openSaved(device: Device) {
  stubRuntime({ handlers: { 'POST /v1/smartaction/list': () => ok({ actions: [] }) } });
  const onClose = vi.fn();
  render(
    <WorkbenchProviders queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RuntimeForm schemaCode="f_order" objectId="o1" mode="View" device={device} onOpen={() => undefined} onClose={onClose} onPrint={() => undefined} />
    </WorkbenchProviders>,
  );
  await screen.findByRole('form', { name: '订单' });
  return { onClose, user: userEvent.setup() };
}

describe('a saved record on a phone', () => {
  it('shows the record first, its data log behind a tab, and two buttons plus 更多 in the bar', async () => {
    const { user, onClose } = await openSaved('phone');
    expect(screen.getByRole('tab', { name: '详情' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: '数据日志' }).getAttribute('aria-selected')).toBe('false');
    const bar = screen.getByRole('toolbar', { name: '表单操作' });
    expect(buttonsOf(bar)).toEqual(['更多', '编辑', '关闭']);

    await user.click(within(bar).getByRole('button', { name: /更\s*多/ }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['删除', '复制', '打印', '分享']);
    await user.click(within(bar).getByRole('button', { name: /关\s*闭/ }));
    expect(onClose).toHaveBeenCalled();

    await user.click(screen.getByRole('tab', { name: '数据日志' }));
    expect(await screen.findByText('张三')).toBeTruthy();
  });

  it('on a PC the footer keeps every button in a row', async () => {
    await openSaved('pc');
    expect(screen.queryByRole('toolbar', { name: '表单操作' })).toBeNull();
    for (const name of [/删\s*除/, /复\s*制/, /打\s*印/, /分\s*享/, /编\s*辑/, /关\s*闭/]) expect(screen.getByRole('button', { name })).toBeTruthy();
  });
});

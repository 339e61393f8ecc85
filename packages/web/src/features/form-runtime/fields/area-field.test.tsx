import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { areaField, areaText } from './area-field.tsx';
import { renderDisplay, renderField, runtimeControl } from './test-harness.tsx';

async function openCascader(user: ReturnType<typeof userEvent.setup>) {
  const input = screen.getByLabelText('地址');
  // The regions arrive in their own chunk; the cascader waits for them.
  await waitFor(() => expect(document.querySelector('.ant-select-loading, .ant-cascader-picker-loading')).toBeNull());
  await user.click(input);
  return input;
}

/** A cascader option by its text (an option with children also holds the expand icon's name). */
const menuItem = (text: string | RegExp) =>
  waitFor(() => {
    const found = screen
      .getAllByRole('menuitemcheckbox')
      .find((item) => (typeof text === 'string' ? item.textContent === text : text.test(item.textContent ?? '')));
    if (!found) throw new Error(`no option ${text}`);
    return found;
  });

describe('area field', () => {
  it('picks 广东省 / 深圳市 / 南山区 in P-C-T and keeps the street address', async () => {
    const user = userEvent.setup();
    const { onChange } = renderField(areaField, runtimeControl('areaSelect', { areaMode: 'P-C-T', showDetail: true }, '地址'));
    await openCascader(user);
    await user.click(await menuItem('广东省'));
    await user.click(await menuItem('深圳市'));
    await user.click(await menuItem('南山区'));
    expect(onChange).toHaveBeenLastCalledWith({ adcode: '440305', adname: '广东省 深圳市 南山区', detail: '' });
    await user.type(screen.getByLabelText('详细地址'), '科技园');
    expect(onChange).toHaveBeenLastCalledWith({ adcode: '440305', adname: '广东省 深圳市 南山区', detail: '科技园' });
  });

  it('picks only a province in P, with no street address when showDetail is off', async () => {
    const user = userEvent.setup();
    const { onChange } = renderField(areaField, runtimeControl('areaSelect', { areaMode: 'P', showDetail: false }, '地址'));
    expect(screen.queryByLabelText('详细地址')).toBeNull();
    await openCascader(user);
    await user.click(await menuItem('广东省'));
    expect(onChange).toHaveBeenLastCalledWith({ adcode: '440000', adname: '广东省', detail: '' });
    // No city column opened.
    expect(screen.queryByText('深圳市')).toBeNull();
  });

  it('stops at the city in P-C', async () => {
    const user = userEvent.setup();
    const { onChange } = renderField(areaField, runtimeControl('areaSelect', { areaMode: 'P-C', showDetail: true }, '地址'));
    await openCascader(user);
    await user.click(await menuItem('广东省'));
    await user.click(await menuItem('深圳市'));
    expect(onChange).toHaveBeenLastCalledWith({ adcode: '440300', adname: '广东省 深圳市', detail: '' });
    expect(screen.queryByText('南山区')).toBeNull();
  });

  it('finds a region by typing its name', async () => {
    const user = userEvent.setup();
    const { onChange } = renderField(areaField, runtimeControl('areaSelect', { areaMode: 'P-C-T', showDetail: false }, '地址'));
    const input = await openCascader(user);
    await user.type(input, '南山');
    const option = await menuItem(/广东省.*深圳市.*南山区/);
    await user.click(option);
    expect(onChange).toHaveBeenLastCalledWith({ adcode: '440305', adname: '广东省 深圳市 南山区', detail: '' });
  });

  it('shows an existing value and the text "adname detail" or --', async () => {
    const value = { adcode: '440305', adname: '广东省 深圳市 南山区', detail: '科技园' };
    renderField(areaField, runtimeControl('areaSelect', { areaMode: 'P-C-T', showDetail: true }, '地址'), value);
    expect((screen.getByLabelText('详细地址') as HTMLInputElement).value).toBe('科技园');
    await waitFor(() => expect(within(document.body).getByText('广东省 / 深圳市 / 南山区')).toBeTruthy());
    expect(areaText(value)).toBe('广东省 深圳市 南山区 科技园');
    expect(areaText(null)).toBe('--');
    renderDisplay(areaField, { control: runtimeControl('areaSelect'), value: null, print: false });
    expect(screen.getByText('--')).toBeTruthy();
  });
});

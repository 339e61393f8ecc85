import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { TEXT_FIELDS } from './text-fields.tsx';
import { renderField, runtimeControl } from './test-harness.tsx';
import { parseTypedDate } from './typed-date.ts';

const date = TEXT_FIELDS.dateTime;
const local = (text: string) => dayjs(text).toISOString();

async function typeAndLeave(text: string) {
  const user = userEvent.setup({ delay: null });
  const input = screen.getByLabelText('日期');
  await user.click(input);
  await user.clear(input);
  await user.type(input, text);
  // Leaves the field by clicking elsewhere on the page.
  await user.click(document.body);
  return input as HTMLInputElement;
}

describe('typed dates', () => {
  it('reads the common spellings in local time; a date alone is its midnight, a month its first day', () => {
    const at = (text: string) => parseTypedDate(text)?.format('YYYY-MM-DD HH:mm:ss');
    for (const text of ['2024-05-20', '2024/5/20', '2024.5.20', '2024年5月20日', '20240520', ' 2024-05-20 ']) expect(at(text), text).toBe('2024-05-20 00:00:00');
    for (const text of ['2024-05-20 14:30', '2024/5/20 14:30', '2024-05-20T14:30', '2024年5月20日 14时30分', '2024-05-20 14：30']) expect(at(text), text).toBe('2024-05-20 14:30:00');
    expect(at('2024-05-20 14:30:15')).toBe('2024-05-20 14:30:15');
    expect(at('2024年5月')).toBe('2024-05-01 00:00:00');
    expect(parseTypedDate('9:05', dayjs('2024-05-20T14:30:00'))?.format('YYYY-MM-DD HH:mm')).toBe('2024-05-20 09:05');
  });

  it('refuses what is not a date or cannot be one', () => {
    for (const text of ['', 'tomorrow', '2024-02-30', '2024-13-01', '2024-05-20 24:00', '2024-05-20 14', '20/5/2024', '2024']) expect(parseTypedDate(text), text).toBeNull();
  });
});

describe('date-time field', () => {
  it('keeps a date typed into a date-time field when the field is left: 2024-05-20 becomes 2024-05-20 00:00', async () => {
    const { onChange } = renderField(date, runtimeControl('dateTime', {}, '日期'));
    const input = await typeAndLeave('2024-05-20');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(local('2024-05-20T00:00:00')));
    await waitFor(() => expect(input.value).toBe('2024-05-20 00:00'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reads other spellings with a time, and a typed date in a date-only field', async () => {
    const first = renderField(date, runtimeControl('dateTime', {}, '日期'));
    await typeAndLeave('2024/5/20 14:30');
    await waitFor(() => expect(first.onChange).toHaveBeenLastCalledWith(local('2024-05-20T14:30:00')));
    first.unmount();

    const second = renderField(date, runtimeControl('dateTime', { displayFormat: 'yyyy-mm-dd' }, '日期'));
    const input = await typeAndLeave('2024年5月20日');
    await waitFor(() => expect(second.onChange).toHaveBeenLastCalledWith(local('2024-05-20T00:00:00')));
    await waitFor(() => expect(input.value).toBe('2024-05-20'));
  });

  it('says so when the typed text is not a date, and keeps the value it had', async () => {
    const { onChange } = renderField(date, runtimeControl('dateTime', {}, '日期'), local('2024-01-02T08:00:00'));
    await typeAndLeave('下周一');
    expect((await screen.findByRole('alert')).textContent).toBe('无法识别的日期：下周一，请按 2024-05-20 14:30 的格式输入');
    expect(onChange).not.toHaveBeenCalled();
    await waitFor(() => expect((screen.getByLabelText('日期') as HTMLInputElement).value).toBe('2024-01-02 08:00'));

    await typeAndLeave('2024-05-20');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(local('2024-05-20T00:00:00')));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('on a phone picks the day and the time apart, each panel narrow enough for the screen, and keeps the other part', async () => {
    const user = userEvent.setup();
    const { onChange } = renderField(date, runtimeControl('dateTime', {}, '日期'), local('2024-05-20T14:30:00'), 'phone');
    const day = screen.getByLabelText('日期');
    const time = screen.getByLabelText('日期的时间');
    expect((day as HTMLInputElement).value).toBe('2024-05-20');
    expect((time as HTMLInputElement).value).toBe('14:30');
    await user.click(day);
    await user.click(await screen.findByTitle('2024-05-21'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(local('2024-05-21T14:30:00')));
    // No time columns beside the days.
    expect(document.querySelector('.ant-picker-time-panel')).toBeNull();
  });
});

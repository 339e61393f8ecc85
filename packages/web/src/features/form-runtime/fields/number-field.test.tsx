import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { controlValueProblem } from '@tritium/shared/controls/index';
import { TEXT_FIELDS } from './text-fields.tsx';
import { renderField, runtimeControl } from './test-harness.tsx';

// A number is never changed behind the person's back: digits past the control's decimal places are not typed, and a
// value keeps what was typed when the field loses focus.

const amount = (options: Record<string, unknown> = {}) => runtimeControl('number', { displayName: '金额', ...options }, '金额');

describe('number field', () => {
  it('does not take a digit past 0 decimal places, and never rounds 2380.5 up to 2381', async () => {
    const user = userEvent.setup();
    const { onChange } = renderField(TEXT_FIELDS.number, amount());
    const input = screen.getByLabelText('金额');
    await user.type(input, '2380.5');
    await user.tab();
    expect(onChange.mock.calls.map(([value]) => value)).not.toContain(2381);
    expect(onChange).toHaveBeenLastCalledWith(2380);
    expect((input as HTMLInputElement).value).toBe('2380');
  });

  it('keeps 12.34 in a 2-decimals field after it loses focus', async () => {
    const user = userEvent.setup();
    const { onChange } = renderField(TEXT_FIELDS.number, amount({ decimalPlaces: 2 }));
    const input = screen.getByLabelText('金额');
    await user.type(input, '12.345');
    expect((input as HTMLInputElement).value).toBe('12.34');
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith(12.34);
    expect((input as HTMLInputElement).value).toBe('12.34');
  });

  it('shows 12.5 as 12.50 in a 2-decimals field once nobody types: padded, the value unchanged', async () => {
    const user = userEvent.setup();
    const { onChange } = renderField(TEXT_FIELDS.number, amount({ decimalPlaces: 2 }));
    const input = screen.getByLabelText('金额');
    await user.type(input, '12.5');
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith(12.5);
    expect((input as HTMLInputElement).value).toBe('12.50');
  });

  it('keeps a pasted value with too many decimals as it is, for the form check to refuse by name', async () => {
    const user = userEvent.setup();
    const control = amount();
    const { onChange } = renderField(TEXT_FIELDS.number, control);
    const input = screen.getByLabelText('金额');
    await user.click(input);
    await user.paste('99.75');
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith(99.75);
    expect((input as HTMLInputElement).value).toBe('99.75');
    expect(controlValueProblem(control.type, control.options, 99.75)).toBe('最多0位小数');
  });
});

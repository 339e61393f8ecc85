import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { DesignerContext, type DesignerContextValue } from '../hooks/designer-context.ts';
import type { DesignerControl } from '../state/control-tree.ts';
import { PaySettingsPanel } from './pay-settings-panel.tsx';

// The designer's panel of a payment control: the amount is one of the form's number fields (not a sub-table's
// column), the subject one of its text fields; without an amount field it says so.

const control = (type: string, code: string, displayName: string, controls?: DesignerControl[]): DesignerControl => ({ uid: code, type: type as DesignerControl['type'], code, options: { displayName }, ...(controls ? { controls } : {}) });

function renderPanel(value: Record<string, string | number | boolean | null>) {
  const onChange = vi.fn();
  const controls = [
    control('textBox', 'Title', '缴费项目'),
    control('number', 'Amount', '金额'),
    control('gridView', 'Lines', '明细', [control('number', 'LinePrice', '单价')]),
    control('plugin', 'Pay', '在线支付'),
  ];
  const context = { state: { controls } } as unknown as DesignerContextValue;
  render(
    <WorkbenchProviders queryClient={new QueryClient()}>
      <DesignerContext.Provider value={context}>
        <PaySettingsPanel value={value} onChange={onChange} />
      </DesignerContext.Provider>
    </WorkbenchProviders>,
  );
  return onChange;
}

describe('payment control settings', () => {
  it('offers the main table’s number fields for the amount and keeps the other settings', async () => {
    const onChange = renderPanel({ subjectField: 'Title' });
    expect(screen.getByText('请选择金额字段，否则无法发起支付')).toBeTruthy();
    await userEvent.click(screen.getByLabelText('金额字段'));
    // The sub-table's number column is not offered: one option, the main table's 金额.
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Amount']);
    await userEvent.click(within(document.querySelector('.ant-select-dropdown')! as HTMLElement).getByText('金额（Amount）'));
    expect(onChange).toHaveBeenLastCalledWith({ subjectField: 'Title', amountField: 'Amount' });
  });
});

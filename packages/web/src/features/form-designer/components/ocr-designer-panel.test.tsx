import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { DesignerContext, type DesignerContextValue } from '../hooks/designer-context.ts';
import type { DesignerControl } from '../state/control-tree.ts';
import { OcrDesignerPanel } from './ocr-designer-panel.tsx';

// The designer's panel of the OCR control: the recognition template (built-ins marked), then for each template field
// the main-table field it fills, stored as the registry keeps it (form control → template field).

const control = (type: string, code: string, displayName: string, options: Record<string, unknown> = {}, controls?: DesignerControl[]): DesignerControl => ({ uid: code, type: type as DesignerControl['type'], code, options: { displayName, ...options }, ...(controls ? { controls } : {}) });

const field = (code: string, name: string) => ({ code, name, anchors: [name], direction: 'any', pattern: null, minLength: null, maxLength: null });
const TEMPLATES = {
  items: [
    { templateCode: 'vatInvoice', name: '增值税发票', description: '', mode: 'rules', builtIn: true, modifiedTime: null, fields: [field('invoiceNumber', '发票号码'), field('totalAmount', '价税合计')] },
    { templateCode: 'contract', name: '合同', description: '', mode: 'rules', builtIn: false, modifiedTime: '2026-11-29T00:00:00.000Z', fields: [field('contractNo', '合同编号')] },
  ],
};

function renderPanel(options: Record<string, unknown>) {
  stubFetch({ 'GET /v1/toolkit/ai/recognition/template/list': () => ok(TEMPLATES) });
  const onChange = vi.fn();
  const ocr = control('ocr', 'Scan', '发票识别', options);
  const controls = [
    ocr,
    control('textBox', 'InvoiceNo', '发票号码'),
    control('number', 'Total', '合计'),
    control('attachment', 'Files', '附件'),
    control('gridView', 'Lines', '明细', {}, [control('textBox', 'LineName', '品名')]),
  ];
  const context = { state: { controls } } as unknown as DesignerContextValue;
  render(
    <WorkbenchProviders queryClient={new QueryClient()}>
      <DesignerContext.Provider value={context}>
        <OcrDesignerPanel control={ocr} onChange={onChange} />
      </DesignerContext.Provider>
    </WorkbenchProviders>,
  );
  return onChange;
}

const dropdown = () => within(document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')! as HTMLElement);

describe('OCR control settings', () => {
  afterEach(() => document.body.replaceChildren());

  it('picks a template, built-ins marked, and starts its mapping afresh', async () => {
    const onChange = renderPanel({ templateCode: null, mapping: {} });
    await userEvent.click(screen.getByLabelText('识别模板'));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['vatInvoice', 'contract']);
    await userEvent.click(dropdown().getByText('增值税发票（内置）'));
    expect(onChange).toHaveBeenLastCalledWith({ displayName: '发票识别', templateCode: 'vatInvoice', mapping: {} });
  });

  it("maps each template field to one of the main table's text, number or date fields", async () => {
    const onChange = renderPanel({ templateCode: 'vatInvoice', mapping: { InvoiceNo: 'invoiceNumber' } });
    await screen.findByText('价税合计');
    await userEvent.click(screen.getByLabelText('“价税合计”填入的表单字段'));
    // Not the attachment, not the sub-table's column, not the OCR control itself.
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['InvoiceNo', 'Total']);
    await userEvent.click(dropdown().getByText('合计（Total）'));
    expect(onChange).toHaveBeenLastCalledWith({ displayName: '发票识别', templateCode: 'vatInvoice', mapping: { InvoiceNo: 'invoiceNumber', Total: 'totalAmount' } });
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { clearUploadPolicies } from '../api/upload.ts';
import { RuntimeFormContext, type RuntimeFormState } from '../components/form-context.ts';
import { ocrField } from './ocr-field.tsx';
import { policy, runtimeControl } from './test-harness.tsx';

// The OCR control in a record being filled: the picture is uploaded and read with the control's template; the values
// the server answers are set on the form's fields and the filled fields are named; what did not pass is said; the
// picture is kept as the control's value; without the plugin or a template the field says why.

const FILE_ID = '0190a0b0-0000-7000-8000-000000000002';
const picture = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'invoice.png', { type: 'image/png' });

function server(fill: () => Response, installed = true) {
  return stubFetch({
    'GET /v1/plugin/ocr/status': () => ok({ installed, engine: 'local', aiAvailable: false }),
    'GET /v1/file/policy/upload': () => ok(policy('ocrImage', 20)),
    'POST /v1/file/upload': () => ok({ fileId: FILE_ID, name: 'invoice.png', size: 8, contentType: 'image/png' }),
    'POST /v1/plugin/ocr/form/fill': fill,
  });
}

function renderInRecord(options: Record<string, unknown>) {
  const setValue = vi.fn();
  const onChange = vi.fn();
  const control = runtimeControl('ocr', { templateCode: 'vatInvoice', mapping: { InvoiceNo: 'invoiceNumber', Total: 'totalAmount' }, ...options }, '发票识别');
  const state = {
    schemaCode: 'Invoices', mode: 'Edit', device: 'phone', titleWidth: 100, form: { values: {}, children: {} }, system: {}, errors: {},
    setValue, setRows: () => undefined,
  } satisfies RuntimeFormState;
  const { container } = render(
    <WorkbenchProviders queryClient={new QueryClient()}>
      <RuntimeFormContext.Provider value={state}>
        <ocrField.Edit control={control} value={null} onChange={onChange} id="ocr" invalid={false} device="phone" schemaCode="Invoices" />
      </RuntimeFormContext.Provider>
    </WorkbenchProviders>,
  );
  return { setValue, onChange, input: container.querySelector('input[type=file]') as HTMLInputElement };
}

afterEach(() => clearUploadPolicies());

describe('OCR control', () => {
  it('reads the picture with its template, sets the mapped fields and names them, keeps the picture', async () => {
    const stub = server(() =>
      ok({
        values: { InvoiceNo: '12345678', Total: 1130 },
        filled: ['InvoiceNo', 'Total'],
        issues: [{ field: 'Phone', message: '电话：请输入正确的电话号码' }],
        fields: [{ code: 'invoiceNumber', name: '发票号码', value: '12345678' }, { code: 'totalAmount', name: '价税合计', value: '1130.00' }],
        lines: [],
      }),
    );
    const { setValue, onChange, input } = renderInRecord({});
    expect(input.getAttribute('capture')).toBe('environment');
    expect(await screen.findByRole('button', { name: /上传或拍摄图片识别/ })).toBeTruthy();
    await userEvent.upload(input, picture());
    expect(await screen.findByText('已识别填入 2 项')).toBeTruthy();
    expect(setValue).toHaveBeenCalledWith('InvoiceNo', '12345678');
    expect(setValue).toHaveBeenCalledWith('Total', 1130);
    expect(screen.getByText('电话：请输入正确的电话号码')).toBeTruthy();
    expect(onChange).toHaveBeenLastCalledWith([{ id: FILE_ID, name: 'invoice.png', size: 8, contentType: 'image/png' }]);
    expect(stub.callsTo('POST', '/v1/plugin/ocr/form/fill')[0]!.body).toEqual({ schemaCode: 'Invoices', controlCode: 'F_ocr', fileId: FILE_ID });
  });

  it("shows the server's refusal and sets nothing", async () => {
    server(() => fail(480101, '只能识别 JPG、PNG 或 WebP 图片，且不超过 20 MB、4000 万像素'));
    const { setValue, onChange, input } = renderInRecord({});
    await userEvent.upload(input, picture());
    expect(await screen.findByText('只能识别 JPG、PNG 或 WebP 图片，且不超过 20 MB、4000 万像素')).toBeTruthy();
    expect(setValue).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('says why it cannot be used: no plugin, or no template chosen', async () => {
    server(() => ok({}), false);
    renderInRecord({});
    expect(await screen.findByText(/OCR 识别插件未安装/)).toBeTruthy();
  });

  it('asks for a template when none is chosen', async () => {
    server(() => ok({}));
    renderInRecord({ templateCode: null });
    expect(await screen.findByText(/尚未选择识别模板/)).toBeTruthy();
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { clearUploadPolicies, MB } from '../api/upload.ts';
import { fileField } from './file-field.tsx';
import { fileOfSize, policy, renderDisplay, renderField, runtimeControl, stubFileServer } from './test-harness.tsx';

beforeEach(() => clearUploadPolicies());
afterEach(() => clearUploadPolicies());

describe('attachment field', () => {
  it('asks the scene policy, sends the raw bytes with the token and engine, and lists the file as a link', async () => {
    setToken('token-1');
    setEngineCode('eng1');
    const { callsTo } = stubFileServer();
    const user = userEvent.setup();
    const { onChange } = renderField(fileField, runtimeControl('attachment', { maxUploadSize: 10 }, '附件'));
    const file = new File(['%PDF-1.4 hello'], '合同.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('上传附件'), file);

    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith([{ id: 'f1', name: '合同.pdf', size: file.size, contentType: 'application/pdf' }]));
    const [policyCall] = callsTo('GET', '/v1/file/policy/upload');
    expect(new URL(policyCall.url, 'http://localhost').searchParams.get('scene')).toBe('attachment');
    const [upload] = callsTo('POST', '/v1/file/upload');
    const query = new URL(upload.url, 'http://localhost').searchParams;
    expect(Object.fromEntries(query)).toEqual({ scene: 'attachment', fileName: '合同.pdf' });
    expect(upload.body).toBe(file);
    expect(upload.headers.authorization).toBe('Bearer token-1');
    expect(upload.headers.enginecode).toBe('eng1');
    expect(upload.headers['content-type']).toBe('application/pdf');

    const list = screen.getByRole('list', { name: '附件列表' });
    const link = await within(list).findByRole('link', { name: '合同.pdf' });
    expect(link.getAttribute('href')).toBe('/v1/file/download/f1?signature=x');
    expect(within(list).getByText('14 B')).toBeTruthy();
  });

  it('adds several files one after another', async () => {
    stubFileServer();
    const user = userEvent.setup();
    const { onChange } = renderField(fileField, runtimeControl('attachment', { maxUploadSize: 10 }, '附件'));
    await user.upload(screen.getByLabelText('上传附件'), [new File(['a'], 'a.txt', { type: 'text/plain' }), new File(['bb'], 'b.txt', { type: 'text/plain' })]);
    await waitFor(() => expect(onChange.mock.lastCall?.[0]?.map((file) => file.name)).toEqual(['a.txt', 'b.txt']));
  });

  it('refuses a file above the scene cap without uploading it', async () => {
    const { callsTo } = stubFileServer();
    const user = userEvent.setup();
    const { onChange } = renderField(fileField, runtimeControl('attachment', { maxUploadSize: 500 }, '附件'));
    await user.upload(screen.getByLabelText('上传附件'), fileOfSize('big.zip', 'application/zip', 11 * MB));
    expect((await screen.findByRole('alert')).textContent).toContain('「big.zip」超过 10MB，不能上传');
    expect(callsTo('POST', '/v1/file/upload')).toHaveLength(0);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('refuses a file above the control’s maxUploadSize', async () => {
    const { callsTo } = stubFileServer();
    const user = userEvent.setup();
    renderField(fileField, runtimeControl('attachment', { maxUploadSize: 2 }, '附件'));
    await user.upload(screen.getByLabelText('上传附件'), fileOfSize('scan.pdf', 'application/pdf', 3 * MB));
    expect((await screen.findByRole('alert')).textContent).toContain('「scan.pdf」超过 2MB');
    expect(callsTo('POST', '/v1/file/upload')).toHaveLength(0);
  });

  it('says why an upload the server refused failed', async () => {
    stubFetch({
      'GET /v1/file/policy/upload': () => ok(policy('attachment', 10)),
      'POST /v1/file/upload': () =>
        new Response(JSON.stringify({ successful: false, errorCode: 260003, errorMessage: '不支持的文件类型', errorType: 'BIZ' }), { status: 400 }),
    });
    const user = userEvent.setup();
    const { onChange } = renderField(fileField, runtimeControl('attachment', { maxUploadSize: 10 }, '附件'));
    await user.upload(screen.getByLabelText('上传附件'), new File(['x'], 'x.exe'));
    expect((await screen.findByRole('alert')).textContent).toContain('「x.exe」上传失败：不支持的文件类型');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('removes a file', async () => {
    stubFileServer();
    const user = userEvent.setup();
    const files = [
      { id: 'f1', name: 'a.pdf', size: 2048, contentType: 'application/pdf' },
      { id: 'f2', name: 'b.pdf', size: 3 * MB, contentType: 'application/pdf' },
    ];
    const { onChange } = renderField(fileField, runtimeControl('attachment', { maxUploadSize: 10 }, '附件'), files);
    expect(screen.getByText('3.0 MB')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '删除a.pdf' }));
    expect(onChange).toHaveBeenLastCalledWith([files[1]]);
    await user.click(screen.getByRole('button', { name: '删除b.pdf' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('shows names as links, plain names in print, and -- when empty', async () => {
    stubFileServer();
    const value = [{ id: 'f9', name: '报价单.xlsx', size: 10, contentType: 'application/vnd.ms-excel' }];
    const control = runtimeControl('attachment');
    const { unmount } = renderDisplay(fileField, { control, value, print: false });
    expect((await screen.findByRole('link', { name: '报价单.xlsx' })).getAttribute('href')).toContain('/v1/file/download/f9');
    unmount();
    const printed = renderDisplay(fileField, { control, value, print: true });
    expect(screen.getByText('报价单.xlsx')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
    printed.unmount();
    renderDisplay(fileField, { control, value: null, print: false });
    expect(screen.getByText('--')).toBeTruthy();
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { findDialog } from '../../../test/find-dialog.ts';
import { fail, ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';
import { clearToken, setToken } from '../../../lib/session.ts';
import { handSignField } from './hand-sign-field.tsx';
import { renderField, runtimeControl } from './test-harness.tsx';

// 手机签名 (docs/decisions/0114): the PC field shows a one-use link as a QR code and takes the phone's signature.

vi.mock('signature_pad', () => ({ default: class { off() {} } }));

const TOKEN = 't'.repeat(43);
const SIGNED = { id: 'f9', name: 'signature.png', size: 120, contentType: 'image/png' };

function stubSigning(states: (() => Response)[]) {
  let polls = 0;
  return stubFetch({
    'POST /v1/handsign/qrlink': () => ok({ token: TOKEN, link: `/entry/sign/${TOKEN}`, expiresTime: '2026-11-28T10:10:00.000Z' }),
    'GET /v1/form/sign/state': () => states[Math.min(polls++, states.length - 1)](),
    'POST /v1/file/urls/byfileids': (call: RecordedCall) => {
      const { fileIds } = call.body as { fileIds: string[] };
      return ok({ list: fileIds.map((fileId) => ({ fileId, url: `/v1/file/download/${fileId}?signature=x`, expiresAt: '2026-11-28T10:00:00Z' })) });
    },
  });
}

beforeEach(() => setToken('member-token'));

describe('signing on the phone from the PC form', () => {
  it('shows the link and its QR code, then fills the field with the phone\'s signature', async () => {
    const { callsTo } = stubSigning([() => ok({ state: 'waiting', file: null }), () => ok({ state: 'signed', file: SIGNED })]);
    const user = userEvent.setup();
    const { onChange } = renderField(handSignField, runtimeControl('handSign', {}, '签名'));
    await user.click(screen.getByRole('button', { name: /手机签名/ }));
    const dialog = await findDialog('手机签名');
    const link = await within(dialog).findByLabelText('签名链接');
    expect(link.textContent).toBe(`${window.location.origin}/entry/sign/${TOKEN}`);
    expect(within(dialog).getByRole('img', { name: '签名二维码' }).getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(callsTo('POST', '/v1/handsign/qrlink')[0].body).toEqual({ schemaCode: 'D000001form', controlCode: 'F_handSign' });
    expect(within(dialog).getByRole('status').textContent).toContain('等待手机签名');

    await waitFor(() => expect(onChange).toHaveBeenCalledWith(SIGNED), { timeout: 5000 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await screen.findByRole('img', { name: '签名图片' })).getAttribute('src')).toContain('/v1/file/download/f9');
    expect(new URL(callsTo('GET', '/v1/form/sign/state')[0].url, 'http://localhost').searchParams.get('token')).toBe(TOKEN);
  });

  it('says when the link has expired and makes a new one', async () => {
    const { callsTo } = stubSigning([() => ok({ state: 'expired', file: null })]);
    const user = userEvent.setup();
    renderField(handSignField, runtimeControl('handSign', {}, '签名'));
    await user.click(screen.getByRole('button', { name: /手机签名/ }));
    const dialog = await findDialog('手机签名');
    expect(await within(dialog).findByText('链接已过期，请重新生成')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '重新生成' }));
    await waitFor(() => expect(callsTo('POST', '/v1/handsign/qrlink')).toHaveLength(2));
  });

  it('shows the refusal when the member may not change the field', async () => {
    stubFetch({ 'POST /v1/handsign/qrlink': () => fail(250205, '您不能修改该签名字段', {}, 403) });
    const user = userEvent.setup();
    renderField(handSignField, runtimeControl('handSign', {}, '签名'));
    await user.click(screen.getByRole('button', { name: /手机签名/ }));
    const dialog = await findDialog('手机签名');
    expect(await within(dialog).findByText('您不能修改该签名字段')).toBeTruthy();
  });

  it('is not offered on the phone itself', () => {
    stubSigning([]);
    renderField(handSignField, runtimeControl('handSign', {}, '签名'), null, 'phone');
    expect(screen.getAllByRole('button')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /手机签名/ })).toBeNull();
  });

  it('is not offered to a visitor without a session', () => {
    stubSigning([]);
    clearToken();
    renderField(handSignField, runtimeControl('handSign', {}, '签名'));
    expect(screen.getAllByRole('button')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /手机签名/ })).toBeNull();
  });
});

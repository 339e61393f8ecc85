import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage } from '../../../test/render.tsx';
import { PhoneSignPage } from './phone-sign-page.tsx';

// /entry/sign/<token> (docs/decisions/0114): whose signature is asked, the pad, and why a link cannot be used.

const pad = vi.hoisted(() => ({ drawn: false }));
vi.mock('signature_pad', () => ({
  default: class {
    isEmpty() {
      return !pad.drawn;
    }
    clear() {
      pad.drawn = false;
    }
    off() {}
    toDataURL() {
      return 'data:image/png;base64,iVBORw0KGgo=';
    }
  },
}));

const TOKEN = 's'.repeat(43);
const INFO = { engineName: '氚星科技', requesterName: '张明', formName: '验收单', fieldName: '客户签名', recordTitle: '三号楼验收', expiresTime: '2026-11-28T10:10:00.000Z' };

beforeEach(() => {
  pad.drawn = false;
});

describe('phone sign page', () => {
  it('shows whose signature is asked, refuses an empty pad, then submits the drawing', async () => {
    const { callsTo } = stubFetch({ 'GET /v1/form/sign/info': () => ok(INFO), 'POST /v1/form/sign/submit': () => ok({ signed: true }) });
    const user = userEvent.setup();
    renderPage('/entry/sign/:token', <PhoneSignPage />, `/entry/sign/${TOKEN}`);
    expect(await screen.findByText('张明请您签名')).toBeTruthy();
    expect(screen.getByText('表单：验收单')).toBeTruthy();
    expect(screen.getByText('签名项：客户签名')).toBeTruthy();
    expect(screen.getByText('数据：三号楼验收')).toBeTruthy();
    expect(screen.getByLabelText('签名区域').tagName).toBe('CANVAS');

    await user.click(screen.getByRole('button', { name: '提交签名' }));
    expect(await screen.findByText('请先签名')).toBeTruthy();
    expect(callsTo('POST', '/v1/form/sign/submit')).toHaveLength(0);

    pad.drawn = true;
    await user.click(screen.getByRole('button', { name: '提交签名' }));
    expect(await screen.findByText('签名已提交')).toBeTruthy();
    expect(callsTo('POST', '/v1/form/sign/submit')[0].body).toEqual({ token: TOKEN, signature: 'data:image/png;base64,iVBORw0KGgo=' });
  });

  it('names a new record as such', async () => {
    stubFetch({ 'GET /v1/form/sign/info': () => ok({ ...INFO, recordTitle: null, requesterName: null }) });
    renderPage('/entry/sign/:token', <PhoneSignPage />, `/entry/sign/${TOKEN}`);
    expect(await screen.findByText('请您签名')).toBeTruthy();
    expect(screen.getByText('数据：新填写的数据')).toBeTruthy();
  });

  it('says clearly that a used link cannot be used again', async () => {
    stubFetch({ 'GET /v1/form/sign/info': () => fail(250202, '该签名链接已使用过，请在电脑上重新生成二维码') });
    renderPage('/entry/sign/:token', <PhoneSignPage />, `/entry/sign/${TOKEN}`);
    expect(await screen.findByText('无法使用该签名链接')).toBeTruthy();
    expect(screen.getByText('该签名链接已使用过，请在电脑上重新生成二维码')).toBeTruthy();
  });

  it('shows a refusal of the submit (another phone signed first) beside the pad', async () => {
    stubFetch({ 'GET /v1/form/sign/info': () => ok(INFO), 'POST /v1/form/sign/submit': () => fail(250202, '该签名链接已使用过，请在电脑上重新生成二维码') });
    const user = userEvent.setup();
    renderPage('/entry/sign/:token', <PhoneSignPage />, `/entry/sign/${TOKEN}`);
    await screen.findByText('张明请您签名');
    pad.drawn = true;
    await user.click(screen.getByRole('button', { name: '提交签名' }));
    await waitFor(() => expect(screen.getByText('该签名链接已使用过，请在电脑上重新生成二维码')).toBeTruthy());
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RegisterCorpPage, RegisterPage } from './register-page.tsx';
import { RegisterSuccessPage } from './register-success-page.tsx';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage } from '../../../test/render.tsx';
import { readCookie, setToken } from '../../../lib/session.ts';

const LOGIN_RESULT = { accessToken: 'new-token', expiresIn: 172800, engineCode: 'neweng01', authType: 1 };

function stubRegistration(registered: boolean) {
  return stubFetch({
    'GET /v1/register/validate': () => ok({ registered }),
    'GET /v1/register/getscalelist': () => ok({ list: [{ code: '1-20', name: '1-20人' }, { code: '21-50', name: '21-50人' }] }),
    'POST /v1/captcha/verifycode/send': () => ok({ expiresIn: 300, resendAfter: 60 }),
    'POST /v1/register/engine': () => ok(LOGIN_RESULT),
  });
}

const successRoute = [{ path: '/entry/register/success', element: <RegisterSuccessPage /> }];

async function fillCommon(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('手机号'), '13700000000');
  await user.click(screen.getByRole('button', { name: '获取验证码' }));
  await screen.findByRole('button', { name: /重新发送/ });
  await user.type(screen.getByLabelText('验证码'), '654321');
}

describe('register', () => {
  it('a new mobile number sets a name and password, then the organisation is created', async () => {
    const { callsTo } = stubRegistration(false);
    renderPage('/entry/register', <RegisterPage />, '/entry/register', successRoute);
    const user = userEvent.setup();
    expect(screen.queryByLabelText('姓名')).toBeNull();
    await fillCommon(user);
    await user.type(await screen.findByLabelText('姓名'), '张三');
    await user.type(screen.getByLabelText('密码'), 'abc12345');
    await user.type(screen.getByLabelText('组织名称'), '氢氦科技');
    await user.click(screen.getByRole('button', { name: '注册并创建组织' }));

    expect(await screen.findByText('组织已创建')).toBeTruthy();
    expect(screen.getByText(/「氢氦科技」已准备就绪/)).toBeTruthy();
    expect(callsTo('GET', '/v1/register/validate')[0].url).toBe('/v1/register/validate?mobile=13700000000');
    expect(callsTo('POST', '/v1/captcha/verifycode/send')[0].body).toEqual({ mobile: '13700000000', scene: 'register' });
    expect(callsTo('POST', '/v1/register/engine')[0].body).toEqual({
      mobile: '13700000000',
      code: '654321',
      userName: '张三',
      password: 'abc12345',
      engineName: '氢氦科技',
    });
    expect(readCookie('access-token')).toBe('new-token');
    expect(readCookie('engine')).toBe('neweng01');

    await user.click(screen.getByRole('button', { name: '进入工作台' }));
    expect(await screen.findByText('workbench-stub')).toBeTruthy();
  });

  it('a registered mobile number skips name and password and adds an organisation to the account', async () => {
    const { callsTo } = stubRegistration(true);
    renderPage('/entry/register', <RegisterPage />, '/entry/register', successRoute);
    const user = userEvent.setup();
    await fillCommon(user);
    expect(await screen.findByText('该手机号已注册，验证后将为此账号创建新组织')).toBeTruthy();
    expect(screen.queryByLabelText('姓名')).toBeNull();
    expect(screen.queryByLabelText('密码')).toBeNull();
    await user.type(screen.getByLabelText('组织名称'), '第二个组织');
    await user.click(screen.getByRole('button', { name: '注册并创建组织' }));

    expect(await screen.findByText('组织已创建')).toBeTruthy();
    expect(callsTo('POST', '/v1/register/engine')[0].body).toEqual({ mobile: '13700000000', code: '654321', engineName: '第二个组织' });
  });

  it('checks the organisation name and the new password', async () => {
    const { callsTo } = stubRegistration(false);
    renderPage('/entry/register', <RegisterPage />);
    const user = userEvent.setup();
    await fillCommon(user);
    await user.type(await screen.findByLabelText('密码'), 'onlyletters');
    await user.type(screen.getByLabelText('组织名称'), '氢');
    await user.click(screen.getByRole('button', { name: '注册并创建组织' }));
    expect(await screen.findByText('密码须为8-16位字母和数字的组合')).toBeTruthy();
    expect(await screen.findByText('组织名称为2-32个字符')).toBeTruthy();
    expect(await screen.findByText('请输入姓名')).toBeTruthy();
    expect(callsTo('POST', '/v1/register/engine')).toHaveLength(0);
  });

  it('signed in, /entry/register/corp only asks for the organisation', async () => {
    setToken('existing-token');
    const { callsTo } = stubRegistration(true);
    const { queryClient } = renderPage('/entry/register/corp', <RegisterCorpPage />, '/entry/register/corp', successRoute);
    // The workbench cached the user in the old engine; the new engine must not show it.
    queryClient.setQueryData(['user', 'info'], { stale: true });
    const user = userEvent.setup();
    expect(screen.queryByLabelText('手机号')).toBeNull();
    await user.type(screen.getByLabelText('组织名称'), '新的组织');
    await user.click(screen.getByRole('button', { name: '注册并创建组织' }));
    await waitFor(() => expect(callsTo('POST', '/v1/register/engine')).toHaveLength(1));
    expect(callsTo('POST', '/v1/register/engine')[0].body).toEqual({ engineName: '新的组织' });
    expect(callsTo('POST', '/v1/register/engine')[0].headers.authorization).toBe('Bearer existing-token');
    expect(await screen.findByText('组织已创建')).toBeTruthy();
    expect(readCookie('engine')).toBe('neweng01');
    expect(queryClient.getQueryData(['user', 'info'])).toBeUndefined();
  });
});

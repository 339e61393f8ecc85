import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage } from '../../../test/render.tsx';
import { clearToken } from '../../../lib/session.ts';
import { JoinPage } from './join-page.tsx';

// /entry/join/<token> (docs/decisions/0112): the organisation and inviter, or why the link cannot be used.

const TOKEN = 'k'.repeat(43);

describe('join page', () => {
  it('shows the organisation, the inviter and the department, and asks a signed-out person for a number and code', async () => {
    clearToken();
    stubFetch({
      'GET /v1/org/invitation/link/info': () => ok({ engineName: '氚星科技', inviterName: '张明', departmentName: '销售部', expiresTime: '2026-12-05T02:00:00.000Z' }),
    });
    renderPage('/entry/join/:token', <JoinPage />, `/entry/join/${TOKEN}`);
    expect(await screen.findByText('张明邀请您加入「氚星科技」')).toBeTruthy();
    expect(screen.getByText(/加入后所在部门：销售部/)).toBeTruthy();
    expect(screen.getByLabelText('手机号')).toBeTruthy();
    expect(screen.getByRole('button', { name: /验证并加入/ })).toBeTruthy();
  });

  it('says clearly that an expired link cannot be used', async () => {
    stubFetch({ 'GET /v1/org/invitation/link/info': () => fail(220018, '邀请链接已过期，请向管理员索取新的链接') });
    renderPage('/entry/join/:token', <JoinPage />, `/entry/join/${TOKEN}`);
    expect(await screen.findByText('无法使用该邀请链接')).toBeTruthy();
    expect(screen.getByText('邀请链接已过期，请向管理员索取新的链接')).toBeTruthy();
  });
});

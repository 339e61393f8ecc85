import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { routes } from '../../../app/routes.tsx';
import { renderRoutes } from '../../../test/render.tsx';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { readCookie, setToken } from '../../../lib/session.ts';

const accepted = {
  id: 'a1', side: 'partner', state: 'active', isExpired: false, hostEngineCode: 'host01', hostEngineName: '宿主制造', partnerEngineCode: 'part01',
  partnerEngineName: '甲供应商', associatedCode: null, link: null, expiresTime: '2026-12-01T00:00:00.000Z', departmentId: null, memberCount: 0,
  createdTime: '2026-11-27T00:00:00.000Z', acceptedTime: '2026-11-27T00:00:00.000Z', endedTime: null,
};

describe('/entry/ass-org and /entry/make-org', () => {
  it('a signed-out visitor is sent to sign in and brought back to the link', async () => {
    stubFetch({});
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/entry/ass-org?associatedCode=abc');
    await user.click(await screen.findByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/entry/'));
    expect(new URLSearchParams(router.state.location.search).get('redirectUrl')).toBe('/entry/ass-org?associatedCode=abc');
  });

  it('shows the host, accepts with the one organisation the person administers, then goes to choose members in it', async () => {
    setToken('t');
    const { callsTo } = stubFetch({
      'GET /v1/org/associated/code': () => ok({ hostEngineName: '宿主制造', expiresTime: '2026-12-01T00:00:00.000Z', organisations: [{ engineCode: 'part01', engineName: '甲供应商', isHost: false, isAssociated: false }] }),
      'POST /v1/org/associated/accept': () => ok(accepted),
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/entry/ass-org?associatedCode=abc');
    expect(await screen.findByText('「宿主制造」邀请你的组织成为关联组织')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '接受邀请并关联' }));
    expect(await screen.findByText('已与「宿主制造」关联')).toBeTruthy();
    expect(callsTo('POST', '/v1/org/associated/accept')[0].body).toEqual({ associatedCode: 'abc', engineCode: 'part01' });
    await user.click(screen.getByRole('button', { name: '选择参与的成员' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/associated-org'));
    expect(readCookie('engine')).toBe('part01');
  });

  it('an unusable link says so and offers nothing to accept', async () => {
    setToken('t');
    stubFetch({ 'GET /v1/org/associated/code': () => fail(205001, '关联邀请链接无效、已被使用或已过期，请向对方索取新的链接') });
    renderRoutes(routes, '/entry/ass-org?associatedCode=old');
    expect(await screen.findByText('关联邀请链接无效、已被使用或已过期，请向对方索取新的链接')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '接受邀请并关联' })).toBeNull();
  });

  it('/make-org creates the organisation and accepts with it', async () => {
    setToken('t');
    const { callsTo } = stubFetch({ 'POST /v1/org/associated/make-org': () => ok({ engineCode: 'part01', association: accepted }) });
    const user = userEvent.setup();
    renderRoutes(routes, '/entry/make-org?associatedCode=abc');
    await user.type(await screen.findByLabelText('组织名称'), '甲供应商');
    await user.click(screen.getByRole('button', { name: '创建组织并关联' }));
    expect(await screen.findByText('已与「宿主制造」关联')).toBeTruthy();
    expect(callsTo('POST', '/v1/org/associated/make-org')[0].body).toEqual({ associatedCode: 'abc', engineName: '甲供应商' });
  });
});

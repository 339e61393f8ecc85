import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderRoutes } from '../../../test/render.tsx';
import { findDialog } from '../../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AdminFrame } from '../admin-frame.tsx';
import { userInfo } from '../test/org-fixtures.ts';
import { AssociatedOrgPage } from './associated-org-page.tsx';

// The admin console's 关联组织 page against a fake server that keeps its associations in memory.

const association = (id: string, extra: Record<string, unknown>) => ({
  id, side: 'host', state: 'active', isExpired: false, hostEngineCode: 'alpha01', hostEngineName: '阿尔法', partnerEngineCode: null, partnerEngineName: null,
  associatedCode: null, link: null, expiresTime: '2026-12-01T00:00:00.000Z', departmentId: null, memberCount: 0, createdTime: '2026-11-20T02:00:00.000Z',
  acceptedTime: null, endedTime: null, ...extra,
});

function fakeServer() {
  const list = [
    association('a1', { partnerEngineCode: 'p1', partnerEngineName: '甲供应商', departmentId: 'd1', memberCount: 2, acceptedTime: '2026-11-21T00:00:00.000Z' }),
    association('a2', { side: 'partner', hostEngineCode: 'h2', hostEngineName: '乙制造', partnerEngineCode: 'alpha01', partnerEngineName: '阿尔法' }),
  ];
  return stubFetch({
    'GET /v1/user/info': () => ok(userInfo(true)),
    'GET /v1/engine/connected': () => ok({ list: [userInfo(true).currentEngine], total: 1, hasMore: false }),
    'GET /v1/org/associated/list': () => ok({ list }),
    'POST /v1/org/associated/code/create': () => {
      const created = association('a3', { state: 'pending', associatedCode: 'code-3', link: '/entry/ass-org?associatedCode=code-3' });
      list.unshift(created);
      return ok(created);
    },
    'POST /v1/org/associated/end': (call) => {
      const a = list.find((x) => x.id === (call.body as { id: string }).id)!;
      Object.assign(a, { state: 'ended', endedTime: '2026-11-27T00:00:00.000Z' });
      return ok(a);
    },
  });
}

function renderPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderRoutes([{ path: '/admin', element: <AdminFrame />, children: [{ path: 'associated-org', element: <AssociatedOrgPage /> }] }], '/admin/associated-org');
}

const rowOf = (name: string) => within(screen.getByRole('table')).getAllByRole('row').find((r) => r.textContent?.includes(name))!;

describe('关联组织 page', () => {
  it('lists both directions, creates a link to send, and ends an association after asking', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('甲供应商', undefined, { timeout: 5000 })).toBeTruthy();
    expect(within(rowOf('甲供应商')).getByText('对方成员进入本组织')).toBeTruthy();
    expect(within(rowOf('乙制造')).getByText('本组织成员进入对方')).toBeTruthy();
    expect(within(rowOf('乙制造')).getByRole('button', { name: '选择成员' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /关联组织/ })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /生成邀请链接/ }));
    const shown = await findDialog('邀请链接已生成');
    expect(within(shown).getByText(`${window.location.origin}/entry/ass-org?associatedCode=code-3`)).toBeTruthy();

    await user.click(within(shown).getByRole('button', { name: /完\s*成/ }));
    await user.click(within(rowOf('甲供应商')).getByRole('button', { name: '解除与 甲供应商 的关联' }));
    await user.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/org/associated/end')).toHaveLength(1));
    expect(callsTo('POST', '/v1/org/associated/end')[0].body).toEqual({ id: 'a1' });
    expect(await within(rowOf('甲供应商')).findByText('已解除')).toBeTruthy();
  });
});

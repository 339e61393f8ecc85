import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok } from '../../../test/fetch-stub.ts';
import { renderRoutes } from '../../../test/render.tsx';
import { findDialog } from '../../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { formatDateTime } from '../../../lib/date-format.ts';
import { AdminFrame } from '../admin-frame.tsx';
import { OrgAdminPage } from '../org-admin-page.tsx';
import { stubConsole } from '../test/org-fixtures.ts';

// 邀请链接 in the organisation console (docs/decisions/0112), against a fake server that keeps its links in memory.

const TOKEN = 'k'.repeat(43);
const EXPIRES = '2026-12-05T02:00:00.000Z';

function linkDto(extra: Record<string, unknown> = {}) {
  return {
    id: 'l1', state: 'active', departmentId: 'c1', departmentName: '氚星科技', creatorName: '张明', expiresTime: EXPIRES,
    createdTime: '2026-11-28T02:00:00.000Z', revokedTime: null, joinCount: 0, ...extra,
  };
}

function fakeServer() {
  const links: ReturnType<typeof linkDto>[] = [];
  return stubConsole({
    'GET /v1/org/invitation/link/list': () => ok({ list: links }),
    'POST /v1/org/invitation/link/create': (call) => {
      const body = call.body as { validDays: number; departmentId?: string };
      const created = linkDto({ departmentId: body.departmentId ?? 'c1' });
      links.unshift(created);
      return ok({ ...created, token: TOKEN, link: `/entry/join/${TOKEN}` });
    },
    'POST /v1/org/invitation/link/revoke': (call) => {
      const link = links.find((l) => l.id === (call.body as { id: string }).id)!;
      Object.assign(link, { state: 'revoked', revokedTime: '2026-11-28T03:00:00.000Z' });
      return ok(link);
    },
  });
}

function renderConsole() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderRoutes([{ path: '/admin', element: <AdminFrame />, children: [{ path: 'org', element: <OrgAdminPage /> }] }], '/admin/org');
}

describe('邀请链接', () => {
  it('creates a link for the chosen validity and shows it with its QR code and expiry, then turns it off', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderConsole();
    await user.click(await screen.findByRole('button', { name: /邀请链接/ }, { timeout: 5000 }));
    const dialog = await findDialog('生成链接');
    expect(await within(dialog).findByText('还没有邀请链接，选择有效期和部门后点击“生成链接”')).toBeTruthy();

    await user.click(within(dialog).getByText('30天'));
    await user.click(within(dialog).getByRole('button', { name: /生成链接/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/org/invitation/link/create')).toHaveLength(1));
    expect(callsTo('POST', '/v1/org/invitation/link/create')[0].body).toEqual({ validDays: 30, departmentId: 'c1' });

    const address = `${window.location.origin}/entry/join/${TOKEN}`;
    expect(await within(dialog).findByText(address)).toBeTruthy();
    expect(within(dialog).getByText(`有效期至 ${formatDateTime(EXPIRES)}`)).toBeTruthy();
    const qr = within(dialog).getByRole('img', { name: '邀请链接二维码' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(within(dialog).getByRole('button', { name: /复制链接/ })).toBeTruthy();
    const table = await within(dialog).findByRole('table');
    expect(await within(table).findByText('有效')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: /关闭链接/ }));
    await user.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/org/invitation/link/revoke')).toHaveLength(1));
    expect(callsTo('POST', '/v1/org/invitation/link/revoke')[0].body).toEqual({ id: 'l1' });
    expect(await within(dialog).findByText('该链接已关闭')).toBeTruthy();
    expect(await within(table).findByText('已关闭')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: /复制链接/ }).hasAttribute('disabled')).toBe(true);
  });
});

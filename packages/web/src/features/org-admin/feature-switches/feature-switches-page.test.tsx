import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderRoutes } from '../../../test/render.tsx';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AdminFrame } from '../admin-frame.tsx';
import { userInfo } from '../test/org-fixtures.ts';
import { FeatureSwitchesPage } from './feature-switches-page.tsx';

// docs/decisions/0115: the honoured switches only, each with what it does, turned on and off by the administrator.

function fakeServer() {
  const values: Record<string, string> = { kanbanView: '1', cardView: '0' };
  const stub = stubFetch({
    'GET /v1/user/info': () => ok(userInfo(true)),
    'GET /v1/engine/connected': () => ok({ list: [userInfo(true).currentEngine], total: 1, hasMore: false }),
    'POST /v1/switch/batch': (call) => ok({ switches: (call.body as { names: string[] }).names.map((name) => ({ name, value: values[name] ?? '1' })) }),
    'POST /v1/switch/set': (call) => {
      const { name, value } = call.body as { name: string; value: string };
      values[name] = value;
      return ok({ name, value });
    },
  });
  return { ...stub, values };
}

describe('feature switches page', () => {
  it('lists the honoured switches with their purpose and sets one', async () => {
    const { callsTo, values } = fakeServer();
    const user = userEvent.setup();
    setToken('t1');
    setEngineCode('alpha01');
    renderRoutes([{ path: '/admin', element: <AdminFrame />, children: [{ path: 'feature-switches', element: <FeatureSwitchesPage /> }] }], '/admin/feature-switches');
    const kanban = await screen.findByRole('switch', { name: '看板视图' }, { timeout: 5000 });
    expect(screen.getByText('列表可切换为看板视图，按选项分列显示数据。')).toBeTruthy();
    expect(screen.getAllByRole('switch').map((s) => s.getAttribute('aria-label'))).toEqual(['关联组织', '看板视图', '卡片视图', '层级视图', '甘特视图']);
    expect(screen.getByRole('switch', { name: '卡片视图' }).getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByRole('switch', { name: '智能助手' })).toBeNull();
    await user.click(kanban);
    await waitFor(() => expect(callsTo('POST', '/v1/switch/set')).toHaveLength(1));
    expect(callsTo('POST', '/v1/switch/set')[0].body).toEqual({ name: 'kanbanView', value: '0' });
    expect(values.kanbanView).toBe('0');
    await waitFor(() => expect(screen.getByRole('switch', { name: '看板视图' }).getAttribute('aria-checked')).toBe('false'));
    expect(await screen.findByText('已关闭「看板视图」')).toBeTruthy();
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PreferencesForm } from './preferences-form.tsx';
import { DeliveryLog } from './delivery-log.tsx';
import { ok, stubFetch } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';

// Notification preferences and the delivery log against a fake server: the caller's choices start from the engine's
// defaults and are saved whole; the administrator's form has the robot column and saves the defaults; the log shows
// each delivery's state and sends its filters.

const defaults = ['workflow', 'comment', 'tasktip', 'dataport', 'automation', 'system'].map((category) => ({ category, channels: category === 'workflow' ? ['sms'] : [] }));

describe('notification preferences', () => {
  it('a member starts from the defaults, ticks e-mail for comments and saves every category', async () => {
    const { callsTo } = stubFetch({
      'GET /v1/notification/preference': () => ok({ defaults, mine: [] }),
      'POST /v1/notification/preference/save': (call) => ok({ defaults, mine: (call.body as { preferences: unknown[] }).preferences }),
    });
    const user = userEvent.setup();
    renderPage('/workbench', <PreferencesForm />);
    const sms = await screen.findByRole('checkbox', { name: '流程 短信' });
    expect((sms as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('checkbox', { name: '流程 群机器人' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: '评论 邮件' }));
    await user.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('POST', '/v1/notification/preference/save')).toHaveLength(1));
    const body = callsTo('POST', '/v1/notification/preference/save')[0].body as { preferences: { category: string; channels: string[] }[]; engineDefaults?: boolean };
    expect(body.engineDefaults).toBeUndefined();
    expect(body.preferences.find((p) => p.category === 'comment')).toEqual({ category: 'comment', channels: ['email'] });
    expect(body.preferences.find((p) => p.category === 'workflow')).toEqual({ category: 'workflow', channels: ['sms'] });
  });

  it('the administrator sets the engine defaults, robots included', async () => {
    const { callsTo } = stubFetch({
      'GET /v1/notification/preference': () => ok({ defaults, mine: [{ category: 'workflow', channels: [] }] }),
      'POST /v1/notification/preference/save': () => ok({ defaults, mine: [] }),
    });
    const user = userEvent.setup();
    renderPage('/admin', <PreferencesForm engine />);
    // The defaults, not the administrator's own choice.
    expect(((await screen.findByRole('checkbox', { name: '流程 短信' })) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: '系统通知 群机器人' }));
    await user.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('POST', '/v1/notification/preference/save')).toHaveLength(1));
    const body = callsTo('POST', '/v1/notification/preference/save')[0].body as { preferences: { category: string; channels: string[] }[]; engineDefaults?: boolean };
    expect(body.engineDefaults).toBe(true);
    expect(body.preferences.find((p) => p.category === 'system')).toEqual({ category: 'system', channels: ['robot'] });
  });

  it('the delivery log shows states and attempts and sends its filters', async () => {
    const { callsTo } = stubFetch({
      'POST /v1/notification/delivery/list': () =>
        ok({
          list: [
            { deliveryId: 'd1', channel: 'sms', state: 'Failed', attempts: 4, receiverId: 'u1', receiverName: '许审批', title: '待办：十一月差旅', category: 'workflow', detail: '网关故障 500', createdTime: '2026-11-25T03:00:00.000Z', finishedTime: '2026-11-25T03:10:00.000Z' },
          ],
          total: 1,
          hasMore: false,
        }),
    });
    const user = userEvent.setup();
    renderPage('/admin', <DeliveryLog />);
    expect(await screen.findByText('待办：十一月差旅')).toBeTruthy();
    expect(screen.getByText('发送失败 ×4')).toBeTruthy();
    expect(screen.getByText('网关故障 500')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: '状态' }));
    await user.click(await screen.findByText('重试中'));
    await waitFor(() => expect(callsTo('POST', '/v1/notification/delivery/list').at(-1)?.body).toEqual({ pageIndex: 0, pageSize: 20, state: 'Retrying' }));
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { fail, ok, stubFetch } from '../../test/fetch-stub.ts';
import { AiAppEntry } from './ai-app-entry.tsx';

// 「AI 生成应用」(docs/decisions/0126): hidden where AI is not available; the dialog asks for a proposal, shows it to
// edit, and sends the edited proposal to be created.

const PROPOSAL = {
  appName: '客户拜访',
  forms: [{ name: '拜访记录', fields: [{ type: 'textBox', code: 'Customer', options: { displayName: '客户' } }], listColumns: ['Customer'], workflow: null }],
  dashboard: null,
};

const renderEntry = (onCreated = vi.fn()) => {
  render(
    <WorkbenchProviders queryClient={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}>
      <AiAppEntry onCreated={onCreated} />
    </WorkbenchProviders>,
  );
  return onCreated;
};

afterEach(() => vi.unstubAllGlobals());

describe('AiAppEntry', () => {
  it('is hidden where AI is not available', async () => {
    const { calls } = stubFetch({ 'GET /v1/ai/status': () => ok({ available: false, reason: 'notConfigured', isAdmin: false }) });
    renderEntry();
    await waitFor(() => expect(calls.some((c) => c.url.includes('/v1/ai/status'))).toBe(true));
    expect(screen.queryByRole('button', { name: 'AI 生成应用' })).toBeNull();
  });

  it('proposes from a description, and creates the edited proposal', async () => {
    const user = userEvent.setup();
    const { calls } = stubFetch({
      'GET /v1/ai/status': () => ok({ available: true, reason: null, isAdmin: false }),
      'POST /v1/ai-service/app/proposal': () => ok({ proposal: PROPOSAL, controlTypes: [{ key: 'textBox', name: '单行文本' }], roles: [] }),
      'POST /v1/ai-service/app/create': () => ok({ appCode: 'A1', forms: [{ schemaCode: 'D1', name: '拜访记录', workflow: false }], dashboardCode: null }),
    });
    const onCreated = renderEntry();
    await user.click(await screen.findByRole('button', { name: 'AI 生成应用' }));
    const dialog = await findDialog('AI 生成应用');
    await user.type(await screen.findByLabelText('应用描述'), '客户拜访记录');
    await user.click(screen.getByRole('button', { name: '生成方案' }));
    expect(calls.find((c) => c.url.endsWith('/v1/ai-service/app/proposal'))!.body).toEqual({ description: '客户拜访记录' });
    const name = (await screen.findByLabelText('字段名称')) as HTMLInputElement;
    await user.clear(name);
    await user.type(name, '客户名称');
    await user.click(screen.getByRole('button', { name: /^创\s*建$/ }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith({ appCode: 'A1', forms: [{ schemaCode: 'D1', name: '拜访记录', workflow: false }], dashboardCode: null }));
    const sent = calls.find((c) => c.url.endsWith('/v1/ai-service/app/create'))!.body as { proposal: typeof PROPOSAL };
    expect(sent.proposal.forms[0]!.fields[0]!.options).toEqual({ displayName: '客户名称' });
    // The dialog closes once the app is created.
    await waitFor(() => expect(dialog.isConnected && screen.queryByRole('dialog', { name: 'AI 生成应用' })).toBeFalsy());
  });

  it('keeps the dialog open with the refusal when the proposal is refused', async () => {
    const user = userEvent.setup();
    stubFetch({
      'GET /v1/ai/status': () => ok({ available: true, reason: null, isAdmin: false }),
      'POST /v1/ai-service/app/proposal': () => fail(480201, '应用方案有误，未创建任何内容：forms.0.fields.0.type 未知的控件类型“hologram”'),
    });
    renderEntry();
    await user.click(await screen.findByRole('button', { name: 'AI 生成应用' }));
    await user.type(await screen.findByLabelText('应用描述'), '全息应用');
    await user.click(screen.getByRole('button', { name: '生成方案' }));
    expect(await screen.findByText(/未知的控件类型“hologram”/)).toBeTruthy();
    expect(screen.queryByTestId('app-proposal')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, stubFetch } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { findForeignText } from '../../test/zh-cn-text-check.ts';
import { findDialog } from '../../test/find-dialog.ts';
import { TemplateMarketPage } from './template-market-page.tsx';
import { PublishTemplateDialog } from './publish-template-dialog.tsx';
import { SampleDataDialog } from './sample-data-dialog.tsx';

// The template center and the app menu's template dialogs against a fake server (docs/decisions/0131).

const template = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id, code: id, scope: 'Platform', builtIn: true, name, category: '财务', summary: `${name}的简介`, icon: 'dollar', iconColor: '#fa8c16',
  formCount: 1, sampleCount: 10, version: 1, installCount: 3, publishedTime: '2026-11-29T02:00:00.000Z', publisherName: null, isMine: false, isSharedToMe: false, pictureCount: 0, ...extra,
});

function signIn() {
  setToken('t1');
  setEngineCode('alpha01');
}

describe('the template center', () => {
  it('lists by source and category, opens a template, installs it with its sample data and opens the new app', async () => {
    let polls = 0;
    const { callsTo } = stubFetch({
      'GET /v1/template/list': (call) => {
        const source = new URL(call.url, 'http://x').searchParams.get('source');
        const list = source === 'shared' ? [template('t2', '乙方报销', { builtIn: false, scope: 'Engine', isSharedToMe: true, publisherName: '乙方公司' })] : [template('t1', '费用报销')];
        return ok({ list, total: list.length, hasMore: false, categories: [{ category: '财务', count: list.length }] });
      },
      'GET /v1/template/info': () => ok({ ...template('t1', '费用报销'), description: '', pictures: [], forms: [{ name: '报销单', sampleCount: 10 }], sharedWith: [] }),
      'POST /v1/template/install': () => ok({ actionId: '0190c6f5-0000-7000-8000-000000000001' }),
      'GET /v1/template/install/progress': () => {
        polls += 1;
        return ok(polls < 2 ? { actionId: 'a', isComplete: false, state: 'Running', progress: 40, message: '正在安装表单', appCode: null } : { actionId: 'a', isComplete: true, state: 'Finished', progress: 100, message: null, appCode: 'App_new' });
      },
    });
    signIn();
    const user = userEvent.setup();
    const { router } = renderPage('/templates', <TemplateMarketPage />);
    const card = await screen.findByRole('button', { name: '费用报销' });
    expect(within(card).getByText('1 个表单 · 10 条示例数据 · 安装 3 次')).toBeTruthy();
    expect(findForeignText(document.body.textContent ?? '')).toEqual([]);

    await user.click(screen.getByText('共享给我的'));
    expect(await screen.findByRole('button', { name: '乙方报销' })).toBeTruthy();
    expect(new URL(callsTo('GET', '/v1/template/list').at(-1)!.url, 'http://x').searchParams.get('source')).toBe('shared');
    await user.click(screen.getByText('全部'));
    await user.click(await screen.findByRole('button', { name: '费用报销' }));
    const drawer = await findDialog('包含的表单');
    await within(drawer).findByText('报销单');
    await user.click(within(drawer).getByRole('button', { name: /安\s*装/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/template/install')[0]?.body).toEqual({ templateId: 't1', withSampleData: true }));
    const progress = await findDialog('安装“费用报销”');
    await user.click(await within(progress).findByRole('button', { name: '打开应用' }, { timeout: 5000 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/workbench/app/App_new'));
  });
});

describe('the app menu dialogs', () => {
  it('发布为模板 shows what blocks publishing and keeps 发布 off', async () => {
    stubFetch({ 'POST /v1/template/checkPublish': () => ok({ allowed: false, problems: [{ path: 'forms.0', message: '引用了应用之外的表单「客户」' }] }) });
    signIn();
    renderPage('/', <PublishTemplateDialog app={{ code: 'App1', displayName: '订单' }} onClose={() => undefined} />);
    const dialog = await findDialog('发布“订单”为模板');
    expect(await within(dialog).findByText('引用了应用之外的表单「客户」')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: /发\s*布/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('示例数据 counts the records per form and clears them after asking', async () => {
    let total = 10;
    const { callsTo } = stubFetch({
      'POST /v1/template/checksampledata': () => ok({ total, forms: total ? [{ schemaCode: 'F1', displayName: '报销单', count: total }] : [] }),
      'POST /v1/template/clearsampledata': () => {
        const removed = total;
        total = 0;
        return ok({ removed });
      },
    });
    signIn();
    const user = userEvent.setup();
    renderPage('/', <SampleDataDialog app={{ code: 'App1', displayName: '费用报销' }} onClose={() => undefined} />);
    const dialog = await findDialog('“费用报销”的示例数据');
    expect(await within(dialog).findByText('报销单：10 条')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /清除示例数据/ }));
    const confirm = await findDialog(/清除 10 条示例数据？/);
    expect(within(confirm).getByText(/清除 10 条示例数据？/)).toBeTruthy();
    expect(callsTo('POST', '/v1/template/clearsampledata')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/template/clearsampledata')).toHaveLength(1));
    expect(await screen.findByText('已清除 10 条示例数据')).toBeTruthy();
  });
});

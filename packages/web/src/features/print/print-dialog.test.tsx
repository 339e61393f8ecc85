import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { ok, stubFetch } from '../../test/fetch-stub.ts';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { PrintButton } from './print-dialog.tsx';

// The list's 打印 (issue 24) against a fake server: shown only with the print right; a whole filtered view becomes a
// print job followed to its download; an Error job offers 重试.

const header = { schemaCode: 'f_order', title: '订单', templates: [{ templateId: 't1', schemaCode: 'f_order', name: '标准订单', isDefault: true, paper: 'A4', orientation: 'portrait', modifiedTime: '2026-11-26T08:00:00Z' }], fields: [], isWorkflow: false, limits: { maxTemplates: 100, maxQrCodes: 50, maxBatch: 2000 } };
const progress = (state: string, extra: Record<string, unknown> = {}) => ({ taskId: 'job1', schemaCode: 'f_order', state, progress: 40, message: null, total: 3, pages: null, retryable: false, downloadUrl: null, expiresAt: null, ...extra });

function open(canPrint: boolean) {
  setToken('t1');
  setEngineCode('alpha01');
  return renderPage('/list', <PrintButton canPrint={canPrint} schemaCode="f_order" formName="订单" selected={[]} scope={{ viewCode: 'v1', keyword: '华东' }} />);
}

describe('the print button of a list', { timeout: 30_000 }, () => {
  it('is not there without the print right', async () => {
    stubFetch({});
    open(false);
    expect(screen.queryByRole('button', { name: /打印/ })).toBeNull();
  });

  it('prints the whole filtered view as one PDF, follows the job and offers the download', async () => {
    let polls = 0;
    const server = stubFetch({
      'GET /v1/print/header': () => ok(header),
      'POST /v1/toolkit/print/paper': () => ok({ taskId: 'job1' }),
      'POST /v1/toolkit/print/progress': () => ok(++polls < 2 ? progress('AssembleData') : progress('Complete', { progress: 100, pages: 3, downloadUrl: '/v1/file/download/f1?sig=1' })),
    });
    const user = userEvent.setup();
    open(true);
    await user.click(screen.getByRole('button', { name: /打印/ }));
    const dialog = await screen.findByRole('dialog');
    // Nothing is selected: the view is the range, the default template is chosen.
    expect(within(dialog).getByRole('radio', { name: /所选数据/ })).toHaveProperty('disabled', true);
    expect(await within(dialog).findByText('标准订单（默认）')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: /浏览器打印/ })).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('button', { name: /生成 PDF/ }));
    expect(await within(dialog).findByText(/组装数据/)).toBeTruthy();
    const link = await within(dialog).findByRole('link', { name: /下载 PDF/ }, { timeout: 5000 });
    expect(link.getAttribute('href')).toBe('/v1/file/download/f1?sig=1');
    expect(within(dialog).getByText(/已完成 · 3 条数据 · 3 页/)).toBeTruthy();
    expect(server.callsTo('POST', '/v1/toolkit/print/paper')[0]!.body).toEqual({ schemaCode: 'f_order', templateId: 't1', viewCode: 'v1', keyword: '华东' });
  });

  it('shows an Error job with its message and retries it', async () => {
    let retried = false;
    const server = stubFetch({
      'GET /v1/print/header': () => ok(header),
      'POST /v1/toolkit/print/paper': () => ok({ taskId: 'job1' }),
      'POST /v1/toolkit/print/progress': () => ok(retried ? progress('Wait') : progress('Error', { message: '任务执行超时（处理进程已停止）', retryable: true })),
      'POST /v1/toolkit/print/retry': () => { retried = true; return ok(progress('Wait')); },
    });
    const user = userEvent.setup();
    open(true);
    await user.click(screen.getByRole('button', { name: /打印/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('标准订单（默认）');
    await user.click(within(dialog).getByRole('button', { name: /生成 PDF/ }));
    expect(await within(dialog).findByText('任务执行超时（处理进程已停止）')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /重试/ }));
    expect(await within(dialog).findByText(/排队中/)).toBeTruthy();
    expect(server.callsTo('POST', '/v1/toolkit/print/retry')).toHaveLength(1);
  });

  it('prints with an Excel template: the job carries its id, and the browser cannot print it', async () => {
    const server = stubFetch({
      'GET /v1/print/header': () => ok(header),
      'GET /v1/toolkit/print/excel/list': () => ok({ list: [{ templateId: 'x1', schemaCode: 'f_order', name: '送货单', createdTime: '2026-11-26T08:00:00Z' }], max: 20 }),
      'POST /v1/toolkit/print/paper': () => ok({ taskId: 'job1' }),
      'POST /v1/toolkit/print/progress': () => ok(progress('Wait')),
    });
    const user = userEvent.setup();
    open(true);
    await user.click(screen.getByRole('button', { name: /打印/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('标准订单（默认）');
    await user.click(within(dialog).getByRole('combobox', { name: '打印模板' }));
    await user.click(await screen.findByText('Excel：送货单'));
    expect(within(dialog).getByRole('button', { name: /浏览器打印/ })).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('button', { name: /生成 PDF/ }));
    expect(await within(dialog).findByText(/排队中/)).toBeTruthy();
    expect(server.callsTo('POST', '/v1/toolkit/print/paper')[0]!.body).toEqual({ schemaCode: 'f_order', excelTemplateId: 'x1', viewCode: 'v1', keyword: '华东' });
  });
});

import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { clearUploadPolicies } from '../form-runtime/api/upload.ts';
import { runtimeKeys } from '../form-runtime/api/runtime-api.ts';
import { DataPortButtons } from './components/data-port-buttons.tsx';
import { DataPortTasksPage } from './components/task-history.tsx';
import { stubDataPort } from './test/data-port-fake.ts';
import { preloadWorkbenchPages } from '../workbench/components/pc-workbench.tsx';

// The workbench's pages are loaded lazily; a first load of their modules here is slow (pc-workbench.tsx).
beforeAll(preloadWorkbenchPages);

async function open(options: Parameters<typeof stubDataPort>[0] = {}) {
  clearUploadPolicies();
  const stub = stubDataPort(options);
  const user = userEvent.setup();
  renderPage('/list', <DataPortButtons schemaCode="f_order" formName="订单" />);
  return { ...stub, user };
}

async function choose(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByTitle(title);
  fireEvent.click(options.at(-1)!);
}

async function uploadInto(dialog: HTMLElement) {
  const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File(['x'], '订单.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })] } });
}

describe('the import wizard', { timeout: 90_000 }, () => {
  it('uploads, maps, previews, starts the task, follows it and offers the error report', async () => {
    const { user, callsTo } = await open();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await user.click(screen.getAllByRole('button', { name: /导\s*入/ })[0]!);
    const dialog = await findDialog('导入 · 订单');
    await uploadInto(dialog);
    // The server's suggested mapping: 编号 → Code, 数量 → Qty, 备注 not imported.
    await within(dialog).findAllByText('文件中的列');
    expect(callsTo('POST', '/v1/dataImport/preview')[0]!.body).toEqual({ schemaCode: 'f_order', fileId: '0190a000-0000-7000-8000-000000000001' });
    const next = within(dialog).getByRole('button', { name: '下一步' });
    await choose(within(dialog).getByLabelText('导入方式'), '更新并新增');
    // Update types need a key: Next waits for it; only mapped main-table fields are offered.
    await waitFor(() => expect((next as HTMLButtonElement).disabled).toBe(true));
    await choose(within(dialog).getByLabelText('匹配字段'), '编号');
    await choose(within(dialog).getByLabelText('数据状态'), '生效');
    await user.click(next);
    expect(await within(dialog).findByText('文件前 2 行（共对应 2 列）')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '开始导入' }));
    await waitFor(() => expect(callsTo('POST', '/v1/dataImport/addImportTask')).toHaveLength(1));
    expect(callsTo('POST', '/v1/dataImport/addImportTask')[0]!.body).toEqual({
      schemaCode: 'f_order', fileId: '0190a000-0000-7000-8000-000000000001', importType: 'Upsert', dataState: 'Effective', keyField: 'Code',
      mapping: [{ column: '编号', field: 'Code' }, { column: '数量', field: 'Qty' }],
    });
    expect(await within(dialog).findByText('正在导入…')).toBeTruthy();
    expect(await within(dialog).findByText('共 5 条：新增 2 条，更新 1 条，未导入 2 条', {}, { timeout: 5000 })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /下载错误报告/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/dataPort/getDownloadUrl')[0]?.body).toEqual({ taskId: 'task-1', kind: 'ErrorReport' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    click.mockRestore();
  });

  it('imports as Effective unless told otherwise, and the form\'s list reads again when the import ends', async () => {
    clearUploadPolicies();
    const { callsTo } = stubDataPort();
    const user = userEvent.setup();
    let reads = 0;
    function ListTotal() {
      const list = useQuery({ queryKey: [...runtimeKeys.records('f_order'), 'view', {}], queryFn: async () => ++reads });
      return <span>{`读取 ${list.data ?? 0} 次`}</span>;
    }
    renderPage('/list', <><ListTotal /><DataPortButtons schemaCode="f_order" formName="订单" /></>);
    expect(await screen.findByText('读取 1 次')).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: /导\s*入/ })[0]!);
    const dialog = await findDialog('导入 · 订单');
    await uploadInto(dialog);
    await within(dialog).findAllByText('文件中的列');
    expect(within(dialog).getByTitle('生效')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '下一步' }));
    await user.click(await within(dialog).findByRole('button', { name: '开始导入' }));
    await waitFor(() => expect(callsTo('POST', '/v1/dataImport/addImportTask')).toHaveLength(1));
    expect(callsTo('POST', '/v1/dataImport/addImportTask')[0]!.body).toMatchObject({ importType: 'InsertOnly', dataState: 'Effective' });
    expect(screen.getByText('读取 1 次')).toBeTruthy();
    expect(await within(dialog).findByText('共 5 条：新增 2 条，更新 1 条，未导入 2 条', {}, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('读取 2 次')).toBeTruthy();
  });

  it("shows the server's refusal and stays on the preview", async () => {
    const { user } = await open({ failImport: true });
    await user.click(screen.getAllByRole('button', { name: /导\s*入/ })[0]!);
    const dialog = await findDialog('导入 · 订单');
    await uploadInto(dialog);
    await within(dialog).findAllByText('文件中的列');
    await user.click(within(dialog).getByRole('button', { name: '下一步' }));
    await user.click(await within(dialog).findByRole('button', { name: '开始导入' }));
    expect((await screen.findAllByText('匹配字段无效（须为已对应的主表字段）')).length).toBeGreaterThan(0);
    expect(within(dialog).getByRole('button', { name: '开始导入' })).toBeTruthy();
  });
});

describe('export and history', { timeout: 90_000 }, () => {
  it('exports the chosen columns and offers the file', async () => {
    const { user, callsTo } = await open();
    await user.click(screen.getAllByRole('button', { name: /导\s*出/ })[0]!);
    const dialog = await findDialog('导出数据 · 订单');
    await user.click(await within(dialog).findByRole('checkbox', { name: '明细.品名' }));
    await user.click(within(dialog).getByRole('button', { name: '开始导出' }));
    expect(await within(dialog).findByText('导出完成，共 7 条')).toBeTruthy();
    expect(callsTo('POST', '/v1/dataExport/addExportTask')[0]!.body).toEqual({ schemaCode: 'f_order', columns: ['SeqNo', 'Code', 'Qty'] });
    expect(within(dialog).getByRole('button', { name: /下载文件/ })).toBeTruthy();
  });

  it('exports within the open list view: its columns chosen in its order, the view code, filter and keyword sent', async () => {
    clearUploadPolicies();
    const { callsTo } = stubDataPort();
    const user = userEvent.setup();
    const filter = { type: 'And', children: [{ field: 'Qty', operator: 'Above', value: 1 }] } as const;
    renderPage('/list', <DataPortButtons schemaCode="f_order" formName="订单" scope={{ viewCode: 'V1', filter, keyword: '甲' }} />);
    await user.click(screen.getAllByRole('button', { name: /导\s*出/ })[0]!);
    const dialog = await findDialog('导出数据 · 订单');
    expect(await within(dialog).findByText('按当前视图及已设置的筛选、搜索条件导出，默认勾选视图中的列')).toBeTruthy();
    await waitFor(() => expect((within(dialog).getByRole('checkbox', { name: '数量' }) as HTMLInputElement).checked).toBe(true));
    expect((within(dialog).getByRole('checkbox', { name: '流水号' }) as HTMLInputElement).checked).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: '开始导出' }));
    await waitFor(() => expect(callsTo('POST', '/v1/dataExport/addExportTask')).toHaveLength(1));
    expect(callsTo('POST', '/v1/dataExport/addExportTask')[0]!.body).toEqual({ schemaCode: 'f_order', columns: ['Qty', 'Code'], viewCode: 'V1', filter, keyword: '甲' });
  });

  it('the history button opens the history page of the form', async () => {
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: '导入导出记录' }));
    expect(await screen.findByText('workbench-stub')).toBeTruthy();
  });
});

describe('the history page', { timeout: 90_000 }, () => {
  async function page(path = '/workbench/data-port?schemaCode=f_order') {
    const stub = stubDataPort();
    const user = userEvent.setup();
    const view = renderPage('/workbench/data-port', <DataPortTasksPage />, path);
    return { ...stub, user, ...view };
  }

  it('lists the tasks of the last 72 hours, 20 a page, with states, progress and counts; cancels and retries', async () => {
    const { user, callsTo } = await page();
    expect(await screen.findByText('超时')).toBeTruthy();
    expect(screen.getByText('等待中')).toBeTruthy();
    expect(screen.getByText('12 条')).toBeTruthy();
    expect(screen.getByText('表单：f_order')).toBeTruthy();
    expect(screen.getByText('共 45 条')).toBeTruthy();
    expect(callsTo('POST', '/v1/dataPort/LoadTaskRecords')[0]!.body).toEqual({ SchemaCode: 'f_order', RecentHours: 72, PageIndex: 1, PageSize: 20 });
    await user.click(screen.getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(callsTo('GET', '/v1/dataPort/CancelWaitingTask/Export/old-2')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/dataPort/RetryTimeoutTasks')[0]?.body).toEqual({ TaskIds: ['old-1'] }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: /下\s*载/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/dataPort/getDownloadUrl')[0]?.body).toEqual({ taskId: 'old-3', kind: 'Result' }));
    click.mockRestore();
  });

  it('pages, filters by type and period, and drops the form filter', async () => {
    const { user, callsTo, router } = await page();
    await screen.findByText('超时');
    await user.click(screen.getByTitle('2'));
    expect(await screen.findByText('第2页.xlsx')).toBeTruthy();
    expect(callsTo('POST', '/v1/dataPort/LoadTaskRecords').at(-1)!.body).toMatchObject({ PageIndex: 2, PageSize: 20 });
    expect(router.state.location.search).toContain('page=2');
    await user.click(screen.getByText('导出', { selector: '.ant-segmented-item-label' }));
    await waitFor(() => expect(callsTo('POST', '/v1/dataPort/LoadTaskRecords').at(-1)!.body).toEqual({ Type: 'Export', SchemaCode: 'f_order', RecentHours: 72, PageIndex: 1, PageSize: 20 }));
    await choose(screen.getByLabelText('时间范围'), '最近7天');
    await waitFor(() => expect(callsTo('POST', '/v1/dataPort/LoadTaskRecords').at(-1)!.body).toMatchObject({ RecentHours: 168 }));
    const close = screen.getByText('表单：f_order').parentElement!.querySelector('.ant-tag-close-icon') as HTMLElement;
    await user.click(close);
    await waitFor(() => expect(callsTo('POST', '/v1/dataPort/LoadTaskRecords').at(-1)!.body).toEqual({ Type: 'Export', RecentHours: 168, PageIndex: 1, PageSize: 20 }));
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { DataPortTasksPage } from './components/task-history.tsx';
import { stubRollback } from './test/rollback-fake.ts';
import { preloadWorkbenchPages } from '../workbench/components/pc-workbench.tsx';

// The workbench's pages are loaded lazily; a first load of their modules here is slow (pc-workbench.tsx).
beforeAll(preloadWorkbenchPages);

// 回滚 in the import history (docs/decisions/0031): a confirmation, the roll back's progress bar while the page
// polls, then its state, counts and the records it left as they were.

describe('rolling back an import from the history', { timeout: 90_000 }, () => {
  it('asks first, shows the progress, then the result and the records left', async () => {
    const { callsTo } = stubRollback();
    const user = userEvent.setup();
    renderPage('/workbench/data-port', <DataPortTasksPage />, '/workbench/data-port');
    await user.click(await screen.findByRole('button', { name: /回\s*滚/ }));
    const confirm = await findDialog('回滚这次导入？');
    expect(within(confirm).getByText(/导入后又被他人修改或处理过的数据不会回滚/)).toBeTruthy();
    expect(callsTo('POST', '/v1/dataPort/RollbackImportTask')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: /回\s*滚/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/dataPort/RollbackImportTask')[0]?.body).toEqual({ TaskId: 'imp-1' }));
    expect(await screen.findByText('回滚中')).toBeTruthy();
    expect(screen.getByLabelText('回滚进度')).toBeTruthy();
    // The page polls while the roll back runs: then its state and counts.
    expect(await screen.findByText('已回滚', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('删除 3 / 恢复 1 / 未回滚 1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^回\s*滚$/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: '未回滚的数据' }));
    const report = await findDialog('未回滚的数据（共 1 条）');
    expect(await within(report).findByText('导入后已被修改（编辑、流程处理或业务规则），未回滚')).toBeTruthy();
    expect(within(report).getByText('更新')).toBeTruthy();
  });

  it('a refused roll back says why', async () => {
    stubRollback({ refuse: true });
    const user = userEvent.setup();
    renderPage('/workbench/data-port', <DataPortTasksPage />, '/workbench/data-port');
    await user.click(await screen.findByRole('button', { name: /回\s*滚/ }));
    const confirm = await findDialog('回滚这次导入？');
    await user.click(within(confirm).getByRole('button', { name: /回\s*滚/ }));
    expect((await screen.findAllByText('该导入已回滚，不能再次回滚')).length).toBeGreaterThan(0);
  });
});

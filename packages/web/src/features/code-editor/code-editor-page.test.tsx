import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorView } from '@codemirror/view';
import { renderPage } from '../../test/render.tsx';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { findForeignText } from '../../test/zh-cn-text-check.ts';
import { formatDateTime, formatDateTimeSeconds } from '../../lib/date-format.ts';
import { AppCodePage, FormCodePage } from './code-editor-page.tsx';
import { FormDesignerPage } from '../form-designer/form-designer-page.tsx';
import { stubDesigner } from '../form-designer/test/designer-fake.ts';
import { SERVER_V1, stubCodeServer } from './test/code-editor-fake.ts';

// The code pages against a fake server: the form's 后端代码 / 前端代码 / 运行日志 tabs, 保存 and its conflict, the type
// check's problems, the versions with a diff and a confirmed roll back, the dry run, and the log's filters.

function openForm() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderPage('/form/code/:schemaCode', <FormCodePage />, '/form/code/f_order');
}

const editorOf = (label: string) => EditorView.findFromDOM(screen.getByLabelText(label))!;
/** The page's text without the code in the editors (code is code, not a screen's words). */
const screenText = () => {
  const copy = document.body.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('.cm-editor').forEach((e) => e.remove());
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  const texts: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node.textContent ?? '');
  return texts.join('\n');
};

describe('the code pages', { timeout: 60_000 }, () => {
  it("is reached from the form designer's 代码 button", async () => {
    stubDesigner();
    const user = userEvent.setup();
    const { router } = renderPage('/form/designer', <FormDesignerPage />, '/form/designer?schemaCode=f_lead', [{ path: '/form/code/:schemaCode', element: <div>code-stub</div> }]);
    await screen.findByRole('heading', { name: '线索登记' });
    await user.click(screen.getByRole('button', { name: /代码/ }));
    expect(await screen.findByText('code-stub')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/form/code/f_lead');
  });

  it('shows the form’s code in Chinese, with its version, author and time', async () => {
    stubCodeServer();
    openForm();
    expect(await screen.findByRole('heading', { name: '订单 · 代码' })).toBeTruthy();
    for (const tab of ['后端代码', '前端代码', '运行日志']) expect(screen.getByRole('tab', { name: tab })).toBeTruthy();
    expect(screen.getByText(`第 2 版 · 王管理 · ${formatDateTime('2026-11-28T06:30:00.000Z')}`, { exact: false })).toBeTruthy();
    expect(editorOf('后端代码编辑器').state.doc.toString()).toContain("ctx.refuse('金额超限')");
    expect(findForeignText(screenText(), ['TypeScript', 'JavaScript'])).toEqual([]);
  });

  it('saves from the loaded version and says when someone else saved first', async () => {
    const server = stubCodeServer();
    const user = userEvent.setup();
    openForm();
    await screen.findByRole('heading', { name: '订单 · 代码' });
    const view = editorOf('后端代码编辑器');
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: SERVER_V1 } });
    expect(await screen.findByText('有未保存的修改')).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: /保\s*存/ })[0]!);
    await waitFor(() => expect(server.callsTo('POST', '/v1/codeeditor/save').map((c) => c.body)).toEqual([
      { appCode: 'sales', schemaCode: 'f_order', part: 'form-server', language: 'ts', source: SERVER_V1, baseVersion: 2 },
    ]));
    expect(await screen.findByText(/第 3 版/)).toBeTruthy();

    stubCodeServer({ conflict: true });
    view.dispatch({ changes: { from: 0, insert: '// 再改一次\n' } });
    await user.click(screen.getAllByRole('button', { name: /保\s*存/ })[0]!);
    expect(await screen.findByText('代码已被他人保存为第 3 版，请先查看最新版本再保存')).toBeTruthy();
  });

  it('shows the type check’s problems at their lines, and switches the language', async () => {
    const server = stubCodeServer({ diagnostics: [{ line: 2, column: 7, message: '类型“ScriptRecords”上不存在属性“nope”。', severity: 'error' }] });
    const user = userEvent.setup();
    openForm();
    await screen.findByRole('heading', { name: '订单 · 代码' });
    const view = editorOf('后端代码编辑器');
    view.dispatch({ changes: { from: view.state.doc.length, insert: 'ctx.records.nope();\n' } });
    expect(await screen.findByText('第 2 行第 7 列：类型“ScriptRecords”上不存在属性“nope”。', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('1 个问题');
    expect(document.querySelector('.cm-lintRange-error')).toBeTruthy();
    await user.click(screen.getAllByText('JavaScript')[0]!);
    await waitFor(() => expect(server.callsTo('POST', '/v1/codeeditor/check').at(-1)!.body).toMatchObject({ part: 'form-server', language: 'js', appCode: 'sales', schemaCode: 'f_order' }), { timeout: 5000 });
  });

  it('compares a version with the editor line by line and rolls back after confirming', async () => {
    const server = stubCodeServer();
    const user = userEvent.setup();
    openForm();
    await screen.findByRole('heading', { name: '订单 · 代码' });
    await user.click(screen.getAllByRole('button', { name: /版\s*本/ })[0]!);
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText(`李应用 · ${formatDateTime('2026-11-28T06:30:00.000Z')}`)).toBeTruthy();
    expect(within(drawer).getByText('96 字节')).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: '对比 第 1 版' }));
    const diff = await within(drawer).findByRole('list', { name: /第\s*版与当前编辑器中的代码对比/ });
    expect(within(diff).getByLabelText('当前已删除').textContent).toContain("ctx.log('一');");
    expect(within(diff).getAllByLabelText('当前新增').map((l) => l.textContent)).toEqual(["+   ctx.log('二');", "+   ctx.refuse('金额超限');"]);

    await user.click(within(drawer).getByRole('button', { name: '回滚 第 1 版' }));
    expect((await screen.findAllByText('回滚到第 1 版？')).length).toBeGreaterThan(0);
    expect(server.callsTo('POST', '/v1/codeeditor/rollback')).toHaveLength(0);
    await user.click(screen.getAllByRole('button', { name: /回\s*滚/ }).at(-1)!);
    await waitFor(() => expect(server.callsTo('POST', '/v1/codeeditor/rollback').map((c) => c.body)).toEqual([{ appCode: 'sales', schemaCode: 'f_order', part: 'form-server', version: 1 }]));
    await waitFor(() => expect(editorOf('后端代码编辑器').state.doc.toString()).toBe(SERVER_V1));
  });

  it('dry-runs a handler and shows the changes, the refusal and the log lines', async () => {
    const server = stubCodeServer();
    const user = userEvent.setup();
    openForm();
    await screen.findByRole('heading', { name: '订单 · 代码' });
    await user.click(screen.getByRole('button', { name: /试运行/ }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByLabelText('数据'));
    await user.click(await screen.findByTitle('华东贸易的订单'));
    await user.click(within(drawer).getByRole('button', { name: /运\s*行/ }));
    expect(await within(drawer).findByText('拒绝信息：金额超限')).toBeTruthy();
    // The editor's text is tried as it is, saved or not.
    const source = editorOf('后端代码编辑器').state.doc.toString();
    expect(server.callsTo('POST', '/v1/codeeditor/dryrun')[0]!.body).toEqual({ schemaCode: 'f_order', handler: 'onSubmit', actionName: 'Submit', objectId: 'o-1001', source, language: 'ts' });
    const row = within(drawer).getByText('合计').closest('tr')!;
    expect(within(row).getByText('100')).toBeTruthy();
    expect(within(row).getByText('120')).toBeTruthy();
    expect(within(drawer).getByText('开始计算')).toBeTruthy();
  });

  it('shows the engine’s run limits and lets an Administrator change them within the bounds', async () => {
    const server = stubCodeServer();
    const user = userEvent.setup();
    openForm();
    await screen.findByRole('heading', { name: '订单 · 代码' });
    await user.click(screen.getByRole('button', { name: /运行限制/ }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('当前为平台默认值')).toBeTruthy();
    const cpu = within(dialog).getByLabelText('CPU 时间上限（毫秒）');
    await user.clear(cpu);
    await user.type(cpu, '3000');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(server.callsTo('POST', '/v1/codeeditor/limits/save').map((c) => c.body)).toEqual([{ cpuMs: 3000, memoryMb: 64 }]));
    expect(await screen.findByText('运行限制已保存')).toBeTruthy();
  });

  it('reads the run log with zh-CN times and filters it by level and text', async () => {
    const server = stubCodeServer();
    const user = userEvent.setup();
    openForm();
    await user.click(await screen.findByRole('tab', { name: '运行日志' }));
    const table = await screen.findByRole('table');
    expect(await within(table).findByText(formatDateTimeSeconds('2026-11-28T07:00:05.000Z'))).toBeTruthy();
    expect(within(table).getByText('req-1')).toBeTruthy();
    expect(within(table).getAllByText('提交')).toHaveLength(2);
    // Request ids are the server's own tokens, not words of the screen.
    expect(findForeignText(screenText(), ['TypeScript', 'JavaScript', 'req'])).toEqual([]);
    await user.click(screen.getByRole('combobox', { name: '级别' }));
    await user.click((await screen.findAllByTitle('错误')).at(-1)!);
    await waitFor(() => expect(new URL(server.callsTo('GET', '/v1/toolkit/bizlog/list').at(-1)!.url, 'http://localhost').searchParams.get('level')).toBe('error'));
    await user.type(screen.getByRole('searchbox', { name: '搜索日志内容' }), '超限{Enter}');
    await waitFor(() => {
      const query = new URL(server.callsTo('GET', '/v1/toolkit/bizlog/list').at(-1)!.url, 'http://localhost').searchParams;
      expect([query.get('appCode'), query.get('schemaCode'), query.get('level'), query.get('text'), query.get('page')]).toEqual(['sales', 'f_order', 'error', '超限', '1']);
    });
  });

  it('opens the app’s custom APIs', async () => {
    stubCodeServer();
    setToken('t1');
    setEngineCode('alpha01');
    renderPage('/app/code/:appCode', <AppCodePage />, '/app/code/sales');
    expect(await screen.findByRole('heading', { name: '销售 · 自定义接口' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: '自定义接口' })).toBeTruthy();
    expect(screen.getByText('尚未保存（模板）')).toBeTruthy();
    // How an outside system calls an action: the Invoke body with this app's code, the engine's headers.
    const help = screen.getByRole('note', { name: '外部系统调用' });
    expect(within(help).getByText(/SchemaCode 填本应用的编码「sales」/)).toBeTruthy();
    await userEvent.setup().click(within(help).getByRole('button', { name: /调用示例/ }));
    const example = (await within(help).findByLabelText('调用示例')).textContent ?? '';
    expect(example).toMatch(/\/OpenApi\/Invoke\nEngineCode: alpha01\nEngineSecret: <在「开放接口」页新建的密钥>/);
    expect(JSON.parse(example.slice(example.indexOf('{')))).toEqual({ ActionName: 'hello', SchemaCode: 'sales', name: '张三' });
  });
});

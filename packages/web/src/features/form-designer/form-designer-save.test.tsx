import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { contracts } from '@tritium/shared';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { FormDesignerPage } from './form-designer-page.tsx';
import { leadDefinition, stubDesigner } from './test/designer-fake.ts';

type SchemaChange = contracts.SchemaChange;

const palette = () => screen.getByRole('navigation', { name: '控件库' });
const properties = () => screen.getByRole('complementary', { name: '属性' });
const saveState = () => screen.getByRole('status', { name: '保存状态' }).textContent;

async function openWith(options: Parameters<typeof stubDesigner>[0] = {}) {
  const stub = stubDesigner(options);
  const user = userEvent.setup();
  renderPage('/form/designer', <FormDesignerPage />, '/form/designer?schemaCode=f_lead');
  await screen.findByRole('heading', { name: '线索登记' });
  return { ...stub, user };
}

const dropColumn: SchemaChange = { kind: 'dropColumn', key: 'i_f_lead.F0009', table: 'i_f_lead', column: 'F0009', affectedRows: 12, needsConfirmation: true };
const changeType: SchemaChange = { kind: 'changeType', key: 'i_f_lead.F0001', table: 'i_f_lead', column: 'F0001', from: 'text', to: 'numeric', affectedRows: 3, needsConfirmation: true };
const addColumn: SchemaChange = { kind: 'addColumn', key: 'i_f_lead.F0004', table: 'i_f_lead', column: 'F0004', needsConfirmation: false };

describe('saving and publishing a form design', () => {
  it('保存 sends the loaded version as baseVersion with the whole definition, then saves over the new version', async () => {
    const { user, saved } = await openWith();
    await user.click(within(palette()).getByRole('button', { name: '数值' }));
    expect(saveState()).toBe('有未保存的修改');
    await user.click(screen.getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(saveState()).toBe('已保存'));
    expect(await screen.findByText('已保存', { selector: '.ant-message *' })).toBeTruthy();

    const body = saved[0].body as { schemaCode: string; baseVersion: number; definition: { attributes: unknown; controls: { type: string; code: string; options: Record<string, unknown>; controls?: unknown[] }[] } };
    expect(body.schemaCode).toBe('f_lead');
    expect(body.baseVersion).toBe(3);
    expect(body.definition.attributes).toEqual(leadDefinition().attributes);
    expect(body.definition.controls.map((c) => `${c.type}:${c.code}`)).toEqual(['textBox:F0001', 'dropDown:F0002', 'creator:CreatedBy', 'gridView:F0003', 'number:F0004']);
    expect(body.definition.controls[3].controls).toEqual([expect.objectContaining({ type: 'textBox', code: 'F0001' })]);
    expect(body.definition.controls[4].options).toMatchObject({ displayName: '数值', required: false, showMode: 'normal' });
    // Nothing designer-only travels.
    expect(JSON.stringify(body)).not.toContain('"uid"');

    await user.click(within(palette()).getByRole('button', { name: '单行文本' }));
    await user.click(screen.getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect((saved[1].body as { baseVersion: number }).baseVersion).toBe(4);
  });

  it('does not send a draft the server would refuse: the problem is pointed out on its control', async () => {
    const { user, saved } = await openWith();
    await user.click(within(screen.getByRole('region', { name: '画布' })).getByRole('listitem', { name: '客户名称' }));
    await user.clear(within(properties()).getByLabelText('标题'));
    await user.click(screen.getByRole('tab', { name: '表单属性' }));
    await user.click(screen.getByRole('button', { name: /保存/ }));
    expect(await screen.findByText('有 1 处设置需要修改，已选中第一个有问题的控件')).toBeTruthy();
    expect(saved).toHaveLength(0);
    // Back on 控件属性, where the field says what is wrong.
    expect(within(properties()).getByRole('tab', { name: '控件属性', selected: true })).toBeTruthy();
    expect(within(properties()).getByText('请输入控件名称')).toBeTruthy();
  });

  it('a stale version is explained and the form can be loaded again', async () => {
    const { user, callsTo } = await openWith({ staleAt: 5 });
    await user.click(within(palette()).getByRole('button', { name: '数值' }));
    await user.click(screen.getByRole('button', { name: /保存/ }));
    const dialog = await findDialog('表单已被其他人修改');
    expect(within(dialog).getByText(/服务器上的版本 5/)).toBeTruthy();
    expect(saveState()).toBe('有未保存的修改');
    await user.click(within(dialog).getByRole('button', { name: '重新加载' }));
    await waitFor(() => expect(callsTo('POST', '/v1/formdesign/load')).toHaveLength(2));
    await waitFor(() => expect(saveState()).toBe('已保存'));
  });

  it('发布 refused for data loss lists each losing change and publishes again confirming exactly those', async () => {
    const { user, callsTo } = await openWith({ publishScript: [{ changes: [addColumn, dropColumn, changeType] }, 'ok'] });
    await user.click(screen.getByRole('button', { name: /发布/ }));
    const dialog = await findDialog('发布将删除数据');
    const rows = within(dialog).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['i_f_lead', 'F0009', '删除字段，字段中的数据将丢失', '12'],
      ['i_f_lead', 'F0001', '类型由 text 改为 numeric，无法转换的值将丢失', '3'],
    ]);
    // Nothing was unsaved, so nothing was saved first.
    expect(callsTo('POST', '/v1/formdesign/save')).toHaveLength(0);
    expect(callsTo('POST', '/v1/formdesign/publish')[0].body).toEqual({ schemaCode: 'f_lead', version: 3, confirm: [] });

    await user.click(within(dialog).getByRole('button', { name: '确认发布' }));
    await waitFor(() => expect(callsTo('POST', '/v1/formdesign/publish')).toHaveLength(2));
    expect(callsTo('POST', '/v1/formdesign/publish')[1].body).toEqual({ schemaCode: 'f_lead', version: 3, confirm: ['i_f_lead.F0009', 'i_f_lead.F0001'] });
    expect(await screen.findByText('已发布，没有字段变化')).toBeTruthy();
    expect(screen.getByText('已发布', { selector: '.ant-tag' })).toBeTruthy();
  });

  it('发布 says what changed by the fields\' names', async () => {
    const { user } = await openWith({ publishScript: [{ summary: { added: ['金额', '日期'], removed: ['备注'], changed: [] } }, { summary: { added: ['事由', '金额', '日期', '备注', '类别', '联系人.姓名'], removed: [], changed: ['来源'] } }] });
    await user.click(screen.getByRole('button', { name: /发布/ }));
    expect(await screen.findByText('已发布。新增字段：金额、日期；删除字段：备注')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /发布/ }));
    expect(await screen.findByText('已发布。新增字段：事由、金额、日期、备注、类别 等 6 个；修改字段：来源')).toBeTruthy();
  });

  it('declining the confirmation publishes nothing more; 发布 with unsaved changes saves them first', async () => {
    const { user, callsTo, saved } = await openWith({ publishScript: [{ changes: [dropColumn] }] });
    await user.click(within(palette()).getByRole('button', { name: '数值' }));
    await user.click(screen.getByRole('button', { name: /发布/ }));
    const dialog = await findDialog('发布将删除数据');
    expect(saved).toHaveLength(1);
    expect(callsTo('POST', '/v1/formdesign/publish')[0].body).toEqual({ schemaCode: 'f_lead', version: 4, confirm: [] });
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByText('发布将删除数据')).toBeNull());
    expect(callsTo('POST', '/v1/formdesign/publish')).toHaveLength(1);
    expect(screen.getByText('有未发布的修改', { selector: '.ant-tag' })).toBeTruthy();
  });
});

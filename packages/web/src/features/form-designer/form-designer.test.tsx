import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CONTROL_ADD_MESSAGES } from '@tritium/shared/controls/index';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { FormDesignerPage } from './form-designer-page.tsx';
import { stubDesigner } from './test/designer-fake.ts';

const open = (schemaCode = 'f_lead') => renderPage('/form/designer', <FormDesignerPage />, `/form/designer?schemaCode=${schemaCode}`);
const canvas = () => screen.getByRole('region', { name: '画布' });
const palette = () => screen.getByRole('navigation', { name: '控件库' });
const properties = () => screen.getByRole('complementary', { name: '属性' });
/** The controls directly in a list (not those of sub-tables inside it). */
const itemsOf = (list: HTMLElement) => within(list).getAllByRole('listitem').filter((item) => item.parentElement === list);
const rootList = () => within(canvas()).getByRole('list', { name: '表单控件' });

async function openLoaded() {
  const stub = stubDesigner();
  const user = userEvent.setup();
  open();
  await screen.findByRole('heading', { name: '线索登记' });
  return { ...stub, user };
}

describe('form designer', () => {
  it('loads the form: its name, the palette in its four groups, and the controls on the canvas', async () => {
    const { callsTo } = await openLoaded();
    expect(callsTo('POST', '/v1/formdesign/load')[0].body).toEqual({ schemaCode: 'f_lead' });
    for (const group of ['基础控件', '系统控件', '高级控件', '布局控件']) {
      expect(within(palette()).getByRole('group', { name: group })).toBeTruthy();
    }
    expect(within(within(palette()).getByRole('group', { name: '基础控件' })).getByRole('button', { name: '单行文本' })).toBeTruthy();
    expect(within(within(palette()).getByRole('group', { name: '布局控件' })).getByRole('button', { name: '子表' })).toBeTruthy();
    expect(itemsOf(rootList()).map((item) => item.getAttribute('aria-label'))).toEqual(['客户名称', '来源', '创建人', '联系人']);
    // The sub-table shows its columns; the drop-down its items.
    expect(within(canvas()).getByRole('list', { name: '「联系人」的列' })).toBeTruthy();
    expect(within(canvas()).getByRole('listitem', { name: '姓名' })).toBeTruthy();
    expect(screen.getByRole('status', { name: '保存状态' }).textContent).toBe('已保存');
  });

  it('a click on a palette item appends the control with the next code and selects it', async () => {
    const { user } = await openLoaded();
    await user.click(within(palette()).getByRole('button', { name: '数值' }));
    const items = itemsOf(rootList());
    expect(items).toHaveLength(5);
    const added = items[4];
    expect(added.getAttribute('aria-label')).toBe('数值');
    expect(added.getAttribute('aria-current')).toBe('true');
    expect(within(added).getByText('F0004')).toBeTruthy();
    expect((within(properties()).getByLabelText('编码') as HTMLInputElement).value).toBe('F0004');
    expect(screen.getByRole('status', { name: '保存状态' }).textContent).toBe('有未保存的修改');
  });

  it('a number added from the palette shows its decimal places in 控件属性 and on the canvas', async () => {
    const { user } = await openLoaded();
    await user.click(within(palette()).getByRole('button', { name: '数值' }));
    expect(within(properties()).getByText('0 位小数')).toBeTruthy();
    const places = within(properties()).getByLabelText('小数位数') as HTMLInputElement;
    expect(places.placeholder).toBe('默认 0 位');
    expect(within(canvas()).getByPlaceholderText('请输入，最多 0 位小数')).toBeTruthy();
    await user.type(places, '2');
    expect(within(properties()).getByText('2 位小数')).toBeTruthy();
    expect(within(canvas()).getByPlaceholderText('请输入，最多 2 位小数')).toBeTruthy();
  });

  it('editing the title in 控件属性 renames the control on the canvas; a bad value is explained beside the field', async () => {
    const { user } = await openLoaded();
    await user.click(within(canvas()).getByRole('listitem', { name: '客户名称' }));
    const title = within(properties()).getByLabelText('标题');
    expect((title as HTMLInputElement).value).toBe('客户名称');
    await user.clear(title);
    expect(await within(properties()).findByText('请输入控件名称')).toBeTruthy();
    await user.type(title, '公司名称');
    expect(within(canvas()).getByRole('listitem', { name: '公司名称' })).toBeTruthy();
    expect(within(canvas()).queryByRole('listitem', { name: '客户名称' })).toBeNull();
    expect(within(properties()).queryByText('请输入控件名称')).toBeNull();
  });

  it('options come from the type schema: a drop-down edits its items, up to the limit', async () => {
    const { user } = await openLoaded();
    await user.click(within(canvas()).getByRole('listitem', { name: '来源' }));
    expect((within(properties()).getByLabelText('选项 2') as HTMLInputElement).value).toBe('官网');
    await user.click(within(properties()).getByRole('button', { name: '添加选项' }));
    await user.type(within(properties()).getByLabelText('选项 3'), '转介绍');
    expect(within(properties()).getByText('3/200 项')).toBeTruthy();
    await user.click(within(properties()).getByRole('button', { name: '删除选项 1' }));
    expect((within(properties()).getByLabelText('选项 1') as HTMLInputElement).value).toBe('官网');
    expect(within(properties()).getByLabelText('显示')).toBeTruthy();
  });

  it('refuses a second creator and a sub-table inside a sub-table with the registry message, adding nothing', async () => {
    const { user } = await openLoaded();
    await user.click(within(palette()).getByRole('button', { name: '创建人' }));
    expect(await screen.findByText(CONTROL_ADD_MESSAGES.onlyOne)).toBeTruthy();
    expect(itemsOf(rootList())).toHaveLength(4);

    // With the sub-table selected, a click adds into it.
    await user.click(within(canvas()).getByRole('listitem', { name: '联系人' }));
    await user.click(within(palette()).getByRole('button', { name: '子表' }));
    expect(await screen.findByText(CONTROL_ADD_MESSAGES.gridViewNoSupport)).toBeTruthy();
    const columns = within(canvas()).getByRole('list', { name: '「联系人」的列' });
    expect(itemsOf(columns)).toHaveLength(1);

    // A column is fine, and its code is unique within the sub-table only.
    await user.click(within(palette()).getByRole('button', { name: '日期' }));
    expect(itemsOf(columns).map((item) => item.getAttribute('aria-label'))).toEqual(['姓名', '日期']);
    expect((within(properties()).getByLabelText('编码') as HTMLInputElement).value).toBe('F0002');
  });

  it('removing a control first asks what depends on it and lists it, then removes it once confirmed', async () => {
    const { user, callsTo } = stubDesignerWithReferences();
    open();
    await screen.findByRole('heading', { name: '线索登记' });
    await user.click(within(canvas()).getByRole('button', { name: '删除「客户名称」' }));
    const dialog = await findDialog('删除控件「客户名称」');
    expect(callsTo('POST', '/v1/formdesign/checkreference')[0].body).toEqual({ schemaCode: 'f_lead', controlCode: 'F0001' });
    const list = within(dialog).getByRole('list', { name: /以下设置依赖该控件/ });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['公式：合计金额（{F0001}*2）', '业务规则：同步客户']);
    expect(within(dialog).getByText(/已保存的数据将一并删除/)).toBeTruthy();
    expect(within(canvas()).getByRole('listitem', { name: '客户名称' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(within(canvas()).queryByRole('listitem', { name: '客户名称' })).toBeNull());
  });

  it('the preview shows the form read-only at PC width and at phone width', async () => {
    const { user } = await openLoaded();
    await user.click(screen.getByRole('button', { name: /预览/ }));
    const dialog = await findDialog('预览');
    expect(within(dialog).getByRole('region', { name: 'PC端预览（820px）' })).toBeTruthy();
    expect(within(dialog).getByRole('listitem', { name: '客户名称' })).toBeTruthy();
    expect(within(dialog).getByRole('columnheader', { name: '姓名' })).toBeTruthy();
    await user.click(within(dialog).getByText('手机端'));
    const phone = within(dialog).getByRole('region', { name: '手机端预览（375px）' });
    expect(phone.style.width).toBe('375px');
    expect(within(dialog).queryByRole('button', { name: /删除/ })).toBeNull();
  });

  it('a missing form shows a 404 page with the way back to the workbench', async () => {
    stubDesigner({ loadError: { status: 404, code: 230001, message: '应用或功能节点不存在，或您没有访问权限' } });
    const user = userEvent.setup();
    open('f_gone');
    expect(await screen.findByText('表单不存在')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '返回工作台' }));
    expect(await screen.findByText('workbench-stub')).toBeTruthy();
  });

  it('a form this person may not design shows a 403 page', async () => {
    stubDesigner({ loadError: { status: 403, code: 230005, message: '您没有管理该应用的权限' } });
    open();
    expect(await screen.findByText('没有设计该表单的权限')).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回工作台' })).toBeTruthy();
  });
});

function stubDesignerWithReferences() {
  const stub = stubDesigner({
    references: [
      { kind: 'formula', schemaCode: 'f_lead', name: '合计金额', detail: '{F0001}*2' },
      { kind: 'businessRule', schemaCode: 'f_order', name: '同步客户' },
    ],
  });
  return { ...stub, user: userEvent.setup() };
}

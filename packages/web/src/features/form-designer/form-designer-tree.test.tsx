import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { FormDesignerPage } from './form-designer-page.tsx';
import { stubDesigner } from './test/designer-fake.ts';

// 树形显示 in the form attributes (docs/decisions/0023): the parent control is an association of the form to itself,
// and choosing it asks the server whether the existing records fit; when they do not, tree display goes off again.

const TREE_FORM = {
  attributes: { displayName: '线索登记' },
  controls: [
    { type: 'textBox', code: 'F0001', options: { displayName: '客户名称' } },
    { type: 'associationQuery', code: 'Parent', options: { displayName: '上级线索', schemaCode: 'f_lead' } },
    { type: 'associationQuery', code: 'Customer', options: { displayName: '客户', schemaCode: 'f_customer' } },
  ],
};
const MESSAGE = '当前表单已开启树形展示，最多支持10级、10000条数据。如需继续添加数据，请联系管理员在表单属性中关闭树形展示。';

async function openAttributes(treeCheck?: Record<string, unknown>) {
  const stub = stubDesigner({ definition: TREE_FORM, treeCheck });
  const user = userEvent.setup();
  renderPage('/form/designer', <FormDesignerPage />, '/form/designer?schemaCode=f_lead');
  await screen.findByRole('heading', { name: '线索登记' });
  await user.click(screen.getByRole('tab', { name: '表单属性' }));
  await user.click(screen.getByRole('switch', { name: '树形显示' }));
  return { ...stub, user };
}

async function chooseParent(title: string) {
  fireEvent.mouseDown(screen.getByLabelText('上级数据控件'));
  fireEvent.click((await screen.findAllByTitle(title)).at(-1)!);
}

describe('tree display in the form attributes', { timeout: 60_000 }, () => {
  it('offers only associations of this form, and checks the records when one is chosen', async () => {
    const { callsTo } = await openAttributes({ valid: true, records: 12, levels: 3 });
    fireEvent.mouseDown(screen.getByLabelText('上级数据控件'));
    expect(await screen.findByTitle('上级线索（Parent）')).toBeTruthy();
    expect(screen.queryByTitle('客户（Customer）')).toBeNull();
    await chooseParent('上级线索（Parent）');
    await waitFor(() => expect(callsTo('POST', '/v1/formdesign/checktreestructure')).toHaveLength(1));
    expect(callsTo('POST', '/v1/formdesign/checktreestructure')[0].body).toEqual({ schemaCode: 'f_lead', parentCode: 'Parent' });
    expect(await screen.findByText('已有数据符合树形展示：12条，最深3级')).toBeTruthy();
    expect(screen.getByRole('switch', { name: '树形显示' }).getAttribute('aria-checked')).toBe('true');
  });

  it('turns tree display off again over records that break the limits, with the spec message', async () => {
    await openAttributes({ valid: false, problem: 'tooDeep', message: MESSAGE, records: 40, levels: 11 });
    await chooseParent('上级线索（Parent）');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('不能开启树形展示')).toBeTruthy();
    expect(within(alert).getByText(MESSAGE)).toBeTruthy();
    expect(screen.getByRole('switch', { name: '树形显示' }).getAttribute('aria-checked')).toBe('false');
  });
});

import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { renderPage } from '../../../test/render.tsx';
import { FormPage } from '../pages/form-page.tsx';
import { stubRuntime } from '../test/runtime-fake.ts';
import type { RuntimeControl } from '../fields/field-types.ts';
import { cellValue, parsePastedGrid, pastedRows } from './sub-table-paste.tsx';

const control = (key: string, code: string, options: Record<string, unknown> = {}): RuntimeControl =>
  ({ code, type: controlTypeByKey(key as never), options, label: code }) as RuntimeControl;

describe('pasted cells', () => {
  it("reads Excel's clipboard: tabs, line breaks, quoted cells with tabs, breaks and doubled quotes", () => {
    expect(parsePastedGrid('a\tb\r\nc\td\r\n')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(parsePastedGrid('"x\ty"\t"两\n行"\t"说""好"""\n')).toEqual([['x\ty', '两\n行', '说"好"']]);
    expect(parsePastedGrid('one')).toEqual([['one']]);
    expect(parsePastedGrid('a\t\tc\n')).toEqual([['a', '', 'c']]);
  });

  it('turns cells into values of the columns from the column pasted into; unreadable cells are counted', () => {
    const columns = [control('textBox', 'Name'), control('number', 'Qty'), control('dateTime', 'Day'), control('checkbox', 'Ok'), control('dropDown', 'Kind', { defaultItems: ['甲', '乙'] }), control('checkboxList', 'Tags', { defaultItems: ['红', '蓝'] })];
    const r = pastedRows('苹果\t1,200\t2024年1月2日\t是\t甲\t红;蓝\n梨\tx\t2024/13/40\t否\t丙\t绿\n', columns);
    expect('rows' in r && r.rows[0]).toMatchObject({ Name: '苹果', Qty: 1200, Ok: true, Kind: '甲', Tags: ['红', '蓝'] });
    expect('rows' in r && new Date(r.rows[0]!.Day as string).getDate()).toBe(2);
    expect('rows' in r && r.rows[1]).toEqual({ Name: '梨', Ok: false });
    expect('rows' in r && r.skipped).toBe(4);
    const fromQty = pastedRows('5\t2024-03-04 10:30\n', columns, 1);
    expect('rows' in fromQty && fromQty.rows[0]).toMatchObject({ Qty: 5 });
    expect(cellValue(control('user', 'Who'), '张三')).toBeUndefined();
  });

  it('refuses more than 200 rows or 20 columns', () => {
    const columns = [control('textBox', 'Name')];
    expect(pastedRows(Array.from({ length: 200 }, (_, i) => `r${i}`).join('\n'), columns)).toMatchObject({ rows: { length: 200 } });
    expect(pastedRows(Array.from({ length: 201 }, (_, i) => `r${i}`).join('\n'), columns)).toEqual({ error: 'limit' });
    expect(pastedRows(Array.from({ length: 21 }, () => 'x').join('\t'), columns)).toEqual({ error: 'limit' });
  });
});

describe('pasting into a sub-table of the form', () => {
  async function openNew() {
    const stub = stubRuntime();
    const user = userEvent.setup();
    renderPage('/form/open/:schemaCode/:objectId?', <FormPage />, '/form/open/f_order');
    await screen.findByRole('form', { name: '订单' });
    return { ...stub, user };
  }
  const paste = (target: Element, text: string) => fireEvent.paste(target, { clipboardData: { getData: () => text } });

  it('adds a row per pasted line (replacing the empty last row) and submits them', async () => {
    const { user, callsTo } = await openNew();
    const grid = screen.getByRole('group', { name: '明细' });
    expect(within(grid).getByText('可从 Excel 复制多行粘贴到子表（最多200行、20列）')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /新增行/ }));
    paste(within(grid).getByRole('textbox'), '苹果\n梨\n"香\t蕉"\n');
    await waitFor(() => expect(within(grid).getAllByRole('textbox')).toHaveLength(3));
    expect(within(grid).getAllByRole('textbox').map((x) => (x as HTMLInputElement).value)).toEqual(['苹果', '梨', '香\t蕉']);
    expect(await screen.findByText('已粘贴 3 行')).toBeTruthy();
    // One value typed into one cell is an ordinary paste.
    paste(within(grid).getAllByRole('textbox')[0]!, '单个');
    expect(within(grid).getAllByRole('textbox')).toHaveLength(3);
    await user.type(within(screen.getByRole('group', { name: '标题' })).getByRole('textbox'), '粘贴单');
    await user.click(screen.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(1));
    expect((callsTo('POST', '/v1/form/action/execute')[0]!.body as { children: unknown }).children).toEqual({ Items: [{ Goods: '苹果' }, { Goods: '梨' }, { Goods: '香\t蕉' }] });
  });

  it('beyond 200 rows nothing is added and the limit is said', async () => {
    await openNew();
    const grid = screen.getByRole('group', { name: '明细' });
    paste(grid, Array.from({ length: 201 }, (_, i) => `货${i}`).join('\n'));
    expect(await screen.findByText('一次最多粘贴200行、20列，请分批粘贴')).toBeTruthy();
    expect(within(grid).queryAllByRole('textbox')).toHaveLength(0);
  });
});

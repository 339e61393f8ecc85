import { describe, expect, it } from 'vitest';
import { MAX_MAP_CONTROLS, MAX_SELECT_OPTIONS } from '../constants/limits.ts';
import { ControlDefinition, ControlDefinitionList, type ControlDefinitionInput } from './control-definition.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('ControlDefinition', () => {
  it('completes a dropped control with its type defaults', () => {
    const control = ControlDefinition.parse({ type: 'number', code: 'amount', options: { displayName: '金额' } });
    expect(control).toMatchObject({
      type: 'number',
      code: 'amount',
      options: { displayName: '金额', decimalPlaces: 0, showMode: 'normal', required: false },
    });
    expect(ControlDefinition.parse({ type: 'textBox', code: 'title' }).options).toMatchObject({ displayName: '单行文本' });
  });

  it('checks options against the control type, reporting the option path', () => {
    const result = ControlDefinition.safeParse({
      type: 'radioList',
      code: 'level',
      options: { defaultItems: Array.from({ length: MAX_SELECT_OPTIONS + 1 }, (_, i) => `L${i}`) },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].path).toEqual(['options', 'defaultItems']);
  });

  it('refuses unknown types and bad codes', () => {
    expect(ControlDefinition.safeParse({ type: 'spreadsheet', code: 'a' }).success).toBe(false);
    expect(ControlDefinition.safeParse({ type: 'textBox', code: '123' }).success).toBe(false);
    expect(ControlDefinition.safeParse({ type: 'textBox', code: 'a'.repeat(64) }).success).toBe(false);
  });

  it('ties system controls to their system column and keeps other controls off those names', () => {
    expect(ControlDefinition.safeParse({ type: 'seqNo', code: 'SeqNo' }).success).toBe(true);
    expect(messages(ControlDefinition.safeParse({ type: 'seqNo', code: 'number' }))).toEqual(['code: 该控件的编码须为SeqNo']);
    expect(ControlDefinition.safeParse({ type: 'textBox', code: 'ownerid' }).success).toBe(false);
    expect(messages(ControlDefinition.safeParse({ type: 'textBox', code: 'name' }))).toEqual(['code: 编码不能使用系统字段名name']);
    expect(ControlDefinition.safeParse({ type: 'groupTitle', code: 'Status' }).success).toBe(true);
  });

  it('lets only containers hold controls, and gives them an empty list by default', () => {
    expect(ControlDefinition.parse({ type: 'gridView', code: 'items' })).toMatchObject({ controls: [] });
    expect(ControlDefinition.parse({ type: 'tab', code: 'tabs' })).toMatchObject({ panes: [] });
    expect(ControlDefinition.safeParse({ type: 'textBox', code: 'a', controls: [] }).success).toBe(false);
    expect(ControlDefinition.safeParse({ type: 'gridView', code: 'a', panes: [] }).success).toBe(false);
  });

  it('parses child controls with their own types', () => {
    const grid = ControlDefinition.parse({
      type: 'gridView',
      code: 'items',
      controls: [{ type: 'number', code: 'qty', options: { showMode: 'percentage' } }],
    });
    expect(grid.controls?.[0].options).toMatchObject({ decimalPlaces: 2 });
    const bad = ControlDefinition.safeParse({ type: 'gridView', code: 'items', controls: [{ type: 'number', code: 'qty', options: { decimalPlaces: 'two' } }] });
    expect(bad.error?.issues[0].path).toEqual(['controls', 0, 'options', 'decimalPlaces']);
  });
});

describe('ControlDefinitionList', () => {
  const check = (controls: ControlDefinitionInput[]) => messages(ControlDefinitionList.safeParse(controls));

  it('accepts a form with a sub-table, a layout and tabs', () => {
    expect(
      check([
        { type: 'seqNo', code: 'SeqNo' },
        { type: 'textBox', code: 'title' },
        { type: 'layout', code: 'row1', controls: [{ type: 'number', code: 'price' }, { type: 'number', code: 'qty' }] },
        {
          type: 'tab',
          code: 'tabs',
          panes: [
            { title: '明细', controls: [{ type: 'gridView', code: 'items', controls: [{ type: 'textBox', code: 'title' }] }] },
            { title: '附件', controls: [{ type: 'attachment', code: 'files' }] },
          ],
        },
      ]),
    ).toEqual([]);
  });

  it('refuses a second system control of a kind', () => {
    expect(check([{ type: 'creator', code: 'CreatedBy' }, { type: 'creator', code: 'CreatedBy' }])).toEqual([
      '1: 该控件在一个表单中只能添加一个',
      '1.code: 编码CreatedBy重复',
    ]);
  });

  it(`refuses more than ${MAX_MAP_CONTROLS} location controls, sub-tables included`, () => {
    const maps = Array.from({ length: MAX_MAP_CONTROLS - 1 }, (_, i) => ({ type: 'map', code: `place${i}` }));
    expect(check(maps)).toEqual([]);
    const grid = { type: 'gridView', code: 'stops', controls: [{ type: 'map', code: 'p1' }, { type: 'map', code: 'p2' }] };
    expect(check([...maps, grid])).toEqual([`${MAX_MAP_CONTROLS - 1}.controls.1: 控件数量已达上限`]);
  });

  it('refuses sub-tables in sub-tables, tabs in tabs and sub-tables in layouts', () => {
    const inner = { type: 'gridView', code: 'inner' };
    expect(check([{ type: 'gridView', code: 'outer', controls: [inner] }])).toEqual(['0.controls.0: 子表中不能添加该控件']);
    expect(check([{ type: 'tab', code: 't1', panes: [{ title: '一', controls: [{ type: 'tab', code: 't2' }] }] }])).toEqual([
      '0.panes.0.controls.0: 标签页中不能添加该控件',
    ]);
    expect(check([{ type: 'layout', code: 'row', controls: [inner] }])).toEqual(['0.controls.0: 一行多列中不能添加该控件']);
  });

  it('wants codes unique in the main table, with a separate set per sub-table', () => {
    expect(check([{ type: 'textBox', code: 'title' }, { type: 'layout', code: 'row', controls: [{ type: 'number', code: 'Title' }] }])).toEqual([
      '1.controls.0.code: 编码Title重复',
    ]);
    expect(check([{ type: 'textBox', code: 'title' }, { type: 'gridView', code: 'items', controls: [{ type: 'textBox', code: 'title' }] }])).toEqual([]);
  });
});

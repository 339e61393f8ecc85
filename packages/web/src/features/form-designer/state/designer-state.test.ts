import { describe, expect, it } from 'vitest';
import { CONTROL_ADD_MESSAGES } from '@tritium/shared/controls/index';
import { zhCN } from '../../../locales/zh-CN.ts';
import { leadDefinition } from '../test/designer-fake.ts';
import { ROOT, allControls, checkAdd, checkMove, codeProblem, locateControl, nextCode } from './control-tree.ts';
import { clickTarget, designerReducer, initialState, isDirty, newUid, toDefinition, type DesignerAction, type DesignerState } from './designer-state.ts';
import { controlAtPath, draftProblems } from './draft-problems.ts';

const start = () => initialState(leadDefinition(), 3);
const run = (state: DesignerState, ...actions: DesignerAction[]) => actions.reduce(designerReducer, state);
const add = (typeKey: string, containerId = ROOT, index?: number): DesignerAction => ({
  type: 'add',
  typeKey: typeKey as never,
  target: { containerId, index },
  uid: newUid(),
  paneTitles: ['标签1', '标签2'],
});
const byCode = (state: DesignerState, code: string) => state.controls.find((control) => control.code === code)!;
const codes = (state: DesignerState) => state.controls.map((control) => control.code);

describe('designer state', () => {
  it('adds with the next code, selects the new control and counts as an unsaved change', () => {
    const state = run(start(), add('textArea'));
    expect(codes(state)).toEqual(['F0001', 'F0002', 'CreatedBy', 'F0003', 'F0004']);
    const added = state.controls[4];
    expect(added.options).toMatchObject({ displayName: '多行文本', rows: 3 });
    expect(state.selectedUid).toBe(added.uid);
    expect(isDirty(state)).toBe(true);
  });

  it('gives system controls their system field as code and a sub-table column a code unique in its sub-table', () => {
    const initial = start();
    const grid = byCode(initial, 'F0003');
    let state = run(initial, add('owner'), add('number', grid.uid));
    expect(state.controls.at(-1)!.code).toBe('OwnerId');
    expect(byCode(state, 'F0003').controls!.map((c) => c.code)).toEqual(['F0001', 'F0002']);
    // A new number in a layout shares the main table's codes.
    state = run(state, add('layout'));
    const layout = state.controls.at(-1)!;
    state = run(state, add('number', layout.uid));
    expect(locateControl(state.controls, state.selectedUid!)!.control.code).toBe('F0005');
  });

  it('a new tab has two panes; a new number keeps its decimals derived from its show mode', () => {
    const state = run(start(), add('tab'), add('number'));
    const tab = state.controls[4];
    expect(tab.panes!.map((pane) => pane.title)).toEqual(['标签1', '标签2']);
    expect(state.controls[5].options.decimalPlaces).toBeUndefined();
  });

  it('refused adds change nothing: the checks say why with the registry results', () => {
    const state = start();
    const grid = byCode(state, 'F0003');
    expect(checkAdd(state.controls, 'creator', ROOT)).toBe('onlyOne');
    expect(checkAdd(state.controls, 'gridView', grid.uid)).toBe('gridViewNoSupport');
    expect(checkAdd(state.controls, 'groupTitle', grid.uid)).toBe('gridViewNoSupport');
    expect(run(state, add('creator'))).toBe(state);
    expect(run(state, add('gridView', grid.uid))).toBe(state);
    // Every refusal has its text in the catalogue, the same as the registry's.
    for (const [result, text] of Object.entries(CONTROL_ADD_MESSAGES)) {
      expect(zhCN.formDesigner.addRefused[result as keyof typeof CONTROL_ADD_MESSAGES]).toBe(text);
    }
  });

  it('moves within a list (taking the target place) and into a tab pane, but never into itself', () => {
    let state = run(start(), add('tab'));
    const tab = state.controls[4];
    const [first] = state.controls;
    state = run(state, { type: 'move', uid: first.uid, target: { containerId: ROOT, index: 2 } });
    expect(codes(state)).toEqual(['F0002', 'CreatedBy', 'F0001', 'F0003', 'F0004']);
    state = run(state, { type: 'move', uid: byCode(state, 'F0003').uid, target: { containerId: tab.panes![1].uid } });
    expect(codes(state)).toEqual(['F0002', 'CreatedBy', 'F0001', 'F0004']);
    expect(state.controls[3].panes![1].controls.map((c) => c.code)).toEqual(['F0003']);
    expect(checkMove(state.controls, tab.uid, tab.panes![0].uid)).toBe('cycle');
    expect(run(state, { type: 'move', uid: tab.uid, target: { containerId: tab.panes![0].uid } })).toBe(state);
    // The creator may move (it is counted as gone), but not into a sub-table.
    const creator = byCode(state, 'CreatedBy');
    expect(checkMove(state.controls, creator.uid, ROOT)).toBe('success');
    const initial = start();
    expect(checkMove(initial.controls, byCode(initial, 'CreatedBy').uid, byCode(initial, 'F0003').uid)).toBe('gridViewNoSupport');
  });

  it('removes a control with what it holds and forgets the selection', () => {
    const initial = start();
    const grid = byCode(initial, 'F0003');
    const state = run(initial, { type: 'select', uid: grid.controls![0].uid }, { type: 'remove', uid: grid.uid });
    expect(codes(state)).toEqual(['F0001', 'F0002', 'CreatedBy']);
    expect(allControls(state.controls)).toHaveLength(3);
    expect(state.selectedUid).toBeNull();
  });

  it('updates options, codes, panes and form attributes; saved clears the unsaved mark only for what was saved', () => {
    let state = run(start(), add('tab'));
    const tab = state.controls[4];
    state = run(
      state,
      { type: 'setOptions', uid: tab.uid, options: { ...tab.options, displayName: '详情' } },
      { type: 'renamePane', paneUid: tab.panes![0].uid, title: '基本信息' },
      { type: 'addPane', tabUid: tab.uid, paneUid: 'p-new', title: '标签3' },
      { type: 'removePane', paneUid: tab.panes![1].uid },
      { type: 'setAttributes', patch: { containerMode: 'Drawer' } },
    );
    const saving = state.revision;
    state = run(state, { type: 'setCode', uid: byCode(state, 'F0001').uid, code: 'customer' });
    state = run(state, { type: 'saved', revision: saving, version: 4 });
    expect(isDirty(state)).toBe(true);
    expect(state.version).toBe(4);
    const definition = toDefinition(state);
    expect(definition.attributes).toMatchObject({ containerMode: 'Drawer', modalWidth: 820, modalHeight: 500 });
    expect(definition.controls[0].code).toBe('customer');
    expect(definition.controls[4]).toMatchObject({ type: 'tab', options: { displayName: '详情' }, panes: [{ title: '基本信息', controls: [] }, { title: '标签3', controls: [] }] });
    expect(JSON.stringify(definition)).not.toContain('uid');
  });

  it('a palette click goes after the selected control, into a selected container, or to the end', () => {
    const state = start();
    const grid = byCode(state, 'F0003');
    expect(clickTarget(state)).toEqual({ containerId: ROOT });
    expect(clickTarget(run(state, { type: 'select', uid: state.controls[0].uid }))).toEqual({ containerId: ROOT, index: 1 });
    expect(clickTarget(run(state, { type: 'select', uid: grid.uid }))).toEqual({ containerId: grid.uid });
    expect(clickTarget(run(state, { type: 'select', uid: grid.controls![0].uid }))).toEqual({ containerId: grid.uid, index: 1 });
  });

  it('checks codes the way the save call will: format, system names, uniqueness per table', () => {
    const state = start();
    const [first, second] = state.controls;
    const column = byCode(state, 'F0003').controls![0];
    expect(codeProblem(state.controls, second.uid, 'F0001')).toEqual({ kind: 'taken' });
    expect(codeProblem(state.controls, column.uid, 'F0002')).toBeUndefined();
    expect(codeProblem(state.controls, first.uid, 'ObjectId')).toEqual({ kind: 'systemField' });
    expect(codeProblem(state.controls, first.uid, '123')?.kind).toBe('invalid');
    expect(nextCode(['F0009', 'customer', 'F0010'])).toBe('F0011');

    const broken = run(state, { type: 'setCode', uid: second.uid, code: 'F0001' });
    const problems = draftProblems(broken);
    expect(problems.map((p) => p.message)).toContain('编码F0001重复');
    expect(controlAtPath(broken.controls, problems[0].path)?.uid).toBe(second.uid);
    expect(draftProblems(state)).toEqual([]);
  });
});

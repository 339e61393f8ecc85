import { describe, expect, it } from 'vitest';
import { WorkflowTemplate, validateTemplate } from '@tritium/shared/workflow/index';
import {
  addActivity,
  autoLayout,
  connect,
  connectProblem,
  emptyTemplate,
  forServer,
  insertAfter,
  issuesByActivity,
  readTemplate,
  removeActivity,
  removeRoute,
  setFieldPermission,
  updateActivity,
  updateRoute,
  NODE_WIDTH,
  type Template,
} from './template-model.ts';

const names = { start: '开始', end: '结束' };
const codes = (t: Template) => t.activities.map((a) => a.code);
const routes = (t: Template) => t.routes.map((r) => `${r.from}>${r.to}${r.isElse ? '(else)' : ''}`);
const byCode = (t: Template, code: string) => t.activities.find((a) => a.code === code)!;

/** Start → 部门经理 → 金额判断 → (财务 | else End), built the way the designer's palette and panel build it. */
function expense(): Template {
  let t = emptyTemplate(names);
  let r = insertAfter(t, 'Start', 'Approve', '部门经理');
  t = r.template;
  const manager = r.code;
  r = insertAfter(t, manager, 'Condition', '金额判断');
  t = r.template;
  const cond = r.code;
  r = insertAfter(t, cond, 'Approve', '财务');
  t = connect(r.template, r.code, 'End');
  t = updateRoute(t, cond, 'End', { isElse: true });
  t = updateRoute(t, cond, r.code, { condition: { match: 'all', rules: [{ field: 'Amount', operator: 'gt', value: 5000 }] } });
  t = updateActivity(t, manager, { participants: { sources: [{ type: 'originatorManager', levels: 1 }], whenEmpty: 'administrator' } });
  return updateActivity(t, r.code, { participants: { sources: [{ type: 'users', ids: ['u-finance'] }], whenEmpty: 'administrator' } });
}

describe('building a template', () => {
  it('starts with Start → End and adds activities with the next free code and the schema\'s defaults', () => {
    const t0 = emptyTemplate(names);
    expect(routes(t0)).toEqual(['Start>End']);
    const a = addActivity(t0, 'Approve', '审批', { x: 10, y: 20 });
    const b = addActivity(a.template, 'Approve', '审批', { x: 10, y: 140 });
    expect([a.code, b.code]).toEqual(['Approve1', 'Approve2']);
    expect(byCode(b.template, 'Approve1')).toMatchObject({ participateMethod: 'parallel', approveExit: { type: 'percentage', value: 100 }, disapproveTarget: { type: 'previousFill' }, position: { x: 10, y: 20 } });
  });

  it('inserts after a plain node in the chain, and adds a branch after a condition', () => {
    const t = expense();
    expect(codes(t)).toEqual(['Start', 'End', 'Approve1', 'Condition1', 'Approve2']);
    expect(routes(t)).toEqual(['Start>Approve1', 'Approve1>Condition1', 'Condition1>End(else)', 'Condition1>Approve2', 'Approve2>End']);
    // The design the designer builds is one the publish validator accepts.
    expect(validateTemplate(WorkflowTemplate.parse(forServer(t)))).toEqual([]);
    // Each insertion pushed what was below down a layer.
    expect(byCode(t, 'End').position!.y).toBeGreaterThan(byCode(t, 'Condition1').position!.y);
  });

  it('connects: a plain node keeps one way out, branches gain routes; bad routes are refused', () => {
    let t = expense();
    t = connect(t, 'Approve1', 'Approve2');
    expect(routes(t).filter((r) => r.startsWith('Approve1>'))).toEqual(['Approve1>Approve2']);
    const before = connect(t, 'Condition1', 'Approve1');
    expect(routes(before).filter((r) => r.startsWith('Condition1>'))).toHaveLength(3);
    expect(connectProblem(t, 'Approve2', 'Approve2')).toBe('self');
    expect(connectProblem(t, 'Approve2', 'Start')).toBe('intoStart');
    expect(connectProblem(t, 'End', 'Approve1')).toBe('fromEnd');
    expect(connectProblem(t, 'Approve2', 'End')).toBe('duplicate');
    expect(connect(t, 'End', 'Approve1')).toBe(t);
  });

  it('removes a node with its routes, never Start, and clears disapprove targets naming it', () => {
    let t = expense();
    t = updateActivity(t, 'Approve2', { disapproveTarget: { type: 'activity', code: 'Approve1' } });
    expect(removeActivity(t, 'Start')).toBe(t);
    const removed = removeActivity(t, 'Approve1');
    expect(codes(removed)).not.toContain('Approve1');
    expect(routes(removed).some((r) => r.includes('Approve1'))).toBe(false);
    expect(byCode(removed, 'Approve2')).toMatchObject({ disapproveTarget: { type: 'previousFill' } });
    expect(routes(removeRoute(t, 'Approve2', 'End'))).not.toContain('Approve2>End');
  });
});

describe('panel edits', () => {
  it('one else per condition; an else route has no condition', () => {
    let t = expense();
    t = updateRoute(t, 'Condition1', 'Approve2', { isElse: true });
    expect(routes(t)).toContain('Condition1>Approve2(else)');
    expect(routes(t)).toContain('Condition1>End');
    expect(t.routes.find((r) => r.to === 'Approve2')!.condition).toBeUndefined();
  });

  it('keeps field permissions coherent: required ⇒ editable ⇒ visible', () => {
    let p = setFieldPermission({}, 'Amount', 'required', true);
    expect(p.Amount).toEqual({ visible: true, editable: true, required: true });
    p = setFieldPermission(p, 'Amount', 'editable', false);
    expect(p.Amount).toEqual({ visible: true, editable: false, required: false });
    p = setFieldPermission(setFieldPermission(p, 'Amount', 'required', true), 'Amount', 'visible', false);
    expect(p.Amount).toEqual({ visible: false, editable: false, required: false });
  });

  it('sends the server only finished sources and conditions', () => {
    let t = expense();
    t = updateActivity(t, 'Approve1', {
      participants: { sources: [{ type: 'users', ids: [] }, { type: 'field', code: '', pick: 'members' }, { type: 'originator' }], whenEmpty: 'autoPass' },
    });
    t = updateRoute(t, 'Condition1', 'Approve2', { condition: { match: 'all', rules: [] } });
    const sent = forServer(t);
    expect(byCode(sent, 'Approve1')).toMatchObject({ participants: { sources: [{ type: 'originator' }], whenEmpty: 'autoPass' } });
    expect(sent.routes.find((r) => r.to === 'Approve2')!.condition).toBeUndefined();
    expect(() => WorkflowTemplate.parse(sent)).not.toThrow();
  });
});

describe('layout, loading and issues', () => {
  it('lays nodes out in layers by their longest path from Start, Ends at the bottom', () => {
    const t = autoLayout(expense());
    const y = (code: string) => byCode(t, code).position!.y;
    expect(y('Start')).toBeLessThan(y('Approve1'));
    expect(y('Approve1')).toBeLessThan(y('Condition1'));
    expect(y('Condition1')).toBeLessThan(y('Approve2'));
    expect(y('Approve2')).toBeLessThan(y('End'));
    // A loop does not send the layout on forever.
    const looped = connect(connect(expense(), 'Approve2', 'Approve1'), 'Approve1', 'Condition1');
    expect(autoLayout(looped).activities.every((a) => Number.isFinite(a.position!.y))).toBe(true);
  });

  it('reads a stored template with the schema\'s defaults, and nothing else', () => {
    const read = readTemplate({ activities: [{ type: 'Start', code: 'Start', name: '开始' }, { type: 'Approve', code: 'A', name: '审批' }], routes: [{ from: 'Start', to: 'A' }] });
    expect(read!.activities[1]).toMatchObject({ participants: { sources: [], whenEmpty: 'administrator' } });
    expect(read!.routes[0].isElse).toBe(false);
    expect(readTemplate(null)).toBeNull();
    expect(readTemplate({ activities: [{ type: 'Nope' }], routes: [] })).toBeNull();
  });

  it('starts a new approve node with send back and transfer on, and reads a stored node as it was saved', () => {
    const t = insertAfter(insertAfter(emptyTemplate(names), 'Start', 'Fill', '经办').template, 'Fill1', 'Approve', '审批').template;
    expect(byCode(t, 'Approve1')).toMatchObject({ permittedActions: ['forward', 'sendBack'] });
    expect(byCode(t, 'Fill1')).toMatchObject({ permittedActions: [] });
    expect(byCode(addActivity(t, 'Approve', '复核', { x: 0, y: 0 }).template, 'Approve2')).toMatchObject({ permittedActions: ['forward', 'sendBack'] });
    const stored = readTemplate({ activities: [{ type: 'Approve', code: 'A', name: '审批', permittedActions: [] }, { type: 'Approve', code: 'B', name: '复核' }], routes: [] })!;
    expect(stored.activities.map((a) => ('permittedActions' in a ? a.permittedActions : null))).toEqual([[], []]);
  });

  it('maps the validator\'s issues to the nodes they name', () => {
    let t = expense();
    t = updateActivity(t, 'Approve2', { participants: { sources: [], whenEmpty: 'administrator' } });
    t = removeRoute(t, 'Condition1', 'End');
    const issues = validateTemplate(WorkflowTemplate.parse(forServer(t)));
    const map = issuesByActivity(issues);
    expect(map.get('Approve2')!.map((i) => i.rule)).toContain('participantsMissing');
    expect(map.get('Condition1')!.map((i) => i.rule)).toContain('conditionElse');
    expect(map.get('Approve1')).toBeUndefined();
    expect(issuesByActivity([{ rule: 'oneEnd', message: 'x' }]).get('')).toHaveLength(1);
  });
});

describe('layout around long routes', () => {
  it('moves a branch node aside for a route that skips its layer', () => {
    const t = autoLayout(expense());
    const x = (code: string) => byCode(t, code).position!.x;
    // Condition1 → End (else) skips the layer of Approve2: Approve2 stands aside, the else route runs straight down.
    expect(x('Condition1')).toBe(x('End'));
    const line = x('Condition1') + NODE_WIDTH / 2;
    expect(line < x('Approve2') || line > x('Approve2') + NODE_WIDTH).toBe(true);
  });
});

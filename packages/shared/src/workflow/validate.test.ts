import { describe, expect, it } from 'vitest';
import { WorkflowTemplate, exitNeed, type WorkflowTemplateInput } from './model.ts';
import { validateTemplate } from './validate.ts';
import { chooseRoutes, evaluateCondition } from './condition.ts';

const users = { sources: [{ type: 'users' as const, ids: ['u1'] }] };
const parse = (t: WorkflowTemplateInput) => WorkflowTemplate.parse(t);
const rules = (t: WorkflowTemplateInput) => validateTemplate(parse(t)).map((i) => i.rule);

const linear: WorkflowTemplateInput = {
  activities: [
    { type: 'Start', code: 'Start', name: '发起' },
    { type: 'Approve', code: 'A1', name: '审批', participants: users },
    { type: 'End', code: 'End', name: '结束' },
  ],
  routes: [
    { from: 'Start', to: 'A1' },
    { from: 'A1', to: 'End' },
  ],
};

describe('workflow template model', () => {
  it('fills the defaults of a participative node', () => {
    const t = parse(linear);
    const a1 = t.activities[1];
    expect(a1).toMatchObject({ participateMethod: 'parallel', approveExit: { type: 'percentage', value: 100 }, disapproveTarget: { type: 'previousFill' }, permittedActions: [] });
    expect(a1.type === 'Approve' && a1.participants.whenEmpty).toBe('administrator');
  });

  it('rejects unknown activity types and bad codes', () => {
    expect(WorkflowTemplate.safeParse({ activities: [{ type: 'Magic', code: 'X', name: 'x' }], routes: [] }).success).toBe(false);
    expect(WorkflowTemplate.safeParse({ activities: [{ type: 'End', code: '1bad', name: 'x' }], routes: [] }).success).toBe(false);
  });

  it('computes approve exits by count and by percentage', () => {
    expect(exitNeed({ type: 'count', value: 2 }, 5)).toBe(2);
    expect(exitNeed({ type: 'count', value: 9 }, 3)).toBe(3);
    expect(exitNeed({ type: 'percentage', value: 100 }, 3)).toBe(3);
    expect(exitNeed({ type: 'percentage', value: 50 }, 3)).toBe(2);
    expect(exitNeed({ type: 'percentage', value: 60 }, 5)).toBe(3);
    expect(exitNeed({ type: 'percentage', value: 1 }, 4)).toBe(1);
  });
});

describe('publish validator', () => {
  it('accepts a linear flow', () => {
    expect(validateTemplate(parse(linear))).toEqual([]);
  });

  it('needs exactly one Start and at least one End', () => {
    expect(rules({ activities: [{ type: 'Start', code: 'S', name: 's' }], routes: [] })).toEqual(expect.arrayContaining(['oneEnd', 'noOutput']));
    expect(rules({ activities: [{ type: 'End', code: 'E', name: 'e' }], routes: [] })).toContain('oneStart');
    const two = { activities: [...linear.activities, { type: 'Start' as const, code: 'S2', name: 's2' }], routes: [...linear.routes, { from: 'S2', to: 'End' }] };
    expect(rules(two)).toContain('oneStart');
  });

  it('finds unreachable nodes, nodes that cannot reach an End, and dangling routes', () => {
    const t: WorkflowTemplateInput = {
      activities: [...linear.activities, { type: 'Approve', code: 'Lost', name: '孤立', participants: users }, { type: 'Approve', code: 'Loop', name: '死循环', participants: users }],
      routes: [...linear.routes, { from: 'Lost', to: 'End' }, { from: 'Loop', to: 'Loop' }, { from: 'A1', to: 'Nowhere' }],
    };
    const found = validateTemplate(parse(t));
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rule: 'unreachable', activity: 'Lost' }),
        expect.objectContaining({ rule: 'noPathToEnd', activity: 'Loop' }),
        expect.objectContaining({ rule: 'routeUnknownNode' }),
      ]),
    );
  });

  it('needs participants on participative and circulate nodes', () => {
    const t = structuredClone(linear);
    (t.activities[1] as { participants: unknown }).participants = { sources: [] };
    expect(validateTemplate(parse(t))).toEqual([expect.objectContaining({ rule: 'participantsMissing', activity: 'A1' })]);
  });

  it('needs an else on every Condition and conditions on its other branches', () => {
    const t: WorkflowTemplateInput = {
      activities: [
        { type: 'Start', code: 'Start', name: '发起' },
        { type: 'Condition', code: 'C', name: '金额' },
        { type: 'Approve', code: 'Big', name: '大额', participants: users },
        { type: 'Approve', code: 'Small', name: '小额', participants: users },
        { type: 'End', code: 'End', name: '结束' },
      ],
      routes: [
        { from: 'Start', to: 'C' },
        { from: 'C', to: 'Big', condition: { rules: [{ field: 'Amount', operator: 'gt', value: 1000 }] } },
        { from: 'C', to: 'Small' },
        { from: 'Big', to: 'End' },
        { from: 'Small', to: 'End' },
      ],
    };
    expect(rules(t)).toEqual(['conditionElse', 'conditionMissing']);
    t.routes[2] = { from: 'C', to: 'Small', isElse: true };
    expect(rules(t)).toEqual([]);
  });

  it('needs every Join fed by one Parallel, nested splits included', () => {
    const base: WorkflowTemplateInput = {
      activities: [
        { type: 'Start', code: 'Start', name: '发起' },
        { type: 'Parallel', code: 'P', name: '并行' },
        { type: 'Approve', code: 'X', name: 'X', participants: users },
        { type: 'Parallel', code: 'P2', name: '内层并行' },
        { type: 'Approve', code: 'Y1', name: 'Y1', participants: users },
        { type: 'Approve', code: 'Y2', name: 'Y2', participants: users },
        { type: 'Join', code: 'J2', name: '内层汇聚' },
        { type: 'Join', code: 'J', name: '汇聚' },
        { type: 'End', code: 'End', name: '结束' },
      ],
      routes: [
        { from: 'Start', to: 'P' },
        { from: 'P', to: 'X' },
        { from: 'P', to: 'P2' },
        { from: 'P2', to: 'Y1' },
        { from: 'P2', to: 'Y2' },
        { from: 'Y1', to: 'J2' },
        { from: 'Y2', to: 'J2' },
        { from: 'J2', to: 'J' },
        { from: 'X', to: 'J' },
        { from: 'J', to: 'End' },
      ],
    };
    expect(rules(base)).toEqual([]);
    // A Join fed from before the split and from the split's branch.
    const bad: WorkflowTemplateInput = {
      activities: [
        { type: 'Start', code: 'Start', name: '发起' },
        { type: 'Condition', code: 'C', name: '条件' },
        { type: 'Approve', code: 'X', name: 'X', participants: users },
        { type: 'Approve', code: 'Y', name: 'Y', participants: users },
        { type: 'Join', code: 'J', name: '汇聚' },
        { type: 'End', code: 'End', name: '结束' },
      ],
      routes: [
        { from: 'Start', to: 'C' },
        { from: 'C', to: 'X', condition: { rules: [{ field: 'A', operator: 'empty' }] } },
        { from: 'C', to: 'Y', isElse: true },
        { from: 'X', to: 'J' },
        { from: 'Y', to: 'J' },
        { from: 'J', to: 'End' },
      ],
    };
    expect(rules(bad)).toEqual(['joinParallel']);
  });

  it('refuses several outputs outside branch nodes and a disapprove target that is not a fill/approve/end node', () => {
    const t = structuredClone(linear);
    t.routes.push({ from: 'A1', to: 'Start' });
    expect(rules(t)).toEqual(expect.arrayContaining(['singleOutput', 'startHasInput']));
    const u = structuredClone(linear);
    (u.activities[1] as { disapproveTarget: unknown }).disapproveTarget = { type: 'activity', code: 'Nope' };
    expect(rules(u)).toEqual(['disapproveTarget']);
  });
});

describe('route conditions', () => {
  it('compares numbers, text and lists', () => {
    expect(evaluateCondition({ match: 'all', rules: [{ field: 'A', operator: 'gt', value: 1000 }] }, { A: '1500.00' })).toBe(true);
    expect(evaluateCondition({ match: 'all', rules: [{ field: 'A', operator: 'gt', value: 1000 }] }, { A: null })).toBe(false);
    expect(evaluateCondition({ match: 'any', rules: [{ field: 'A', operator: 'eq', value: 'x' }, { field: 'B', operator: 'notEmpty' }] }, { A: 'y', B: ['1'] })).toBe(true);
    expect(evaluateCondition({ match: 'all', rules: [{ field: 'T', operator: 'in', value: ['a', 'b'] }] }, { T: 'b' })).toBe(true);
    expect(evaluateCondition({ match: 'all', rules: [{ field: 'T', operator: 'contains', value: 'ab' }] }, { T: 'xaby' })).toBe(true);
  });

  it('takes the first matching route, else the else route; a split takes every matching route', () => {
    const routes = [
      { from: 'C', to: 'Big', isElse: false, condition: { match: 'all' as const, rules: [{ field: 'A', operator: 'gte' as const, value: 100 }] } },
      { from: 'C', to: 'Small', isElse: true },
      { from: 'C', to: 'Any', isElse: false },
    ];
    expect(chooseRoutes(routes.slice(0, 2), { A: 100 }, false).map((r) => r.to)).toEqual(['Big']);
    expect(chooseRoutes(routes.slice(0, 2), { A: 5 }, false).map((r) => r.to)).toEqual(['Small']);
    expect(chooseRoutes([routes[0], routes[2]], { A: 5 }, true).map((r) => r.to)).toEqual(['Any']);
  });

  it('a formula condition takes its route when true; with a filter condition both must hold; a broken formula never holds', () => {
    const big = { from: 'C', to: 'Big', isElse: false, formula: 'AND({A} >= 100, LEN({T}) > 2)' };
    const other = { from: 'C', to: 'Other', isElse: true };
    expect(chooseRoutes([big, other], { A: 150, T: '报销单' }, false).map((r) => r.to)).toEqual(['Big']);
    expect(chooseRoutes([big, other], { A: 150, T: '单' }, false).map((r) => r.to)).toEqual(['Other']);
    const both = { ...big, formula: '{A} > 10', condition: { match: 'all' as const, rules: [{ field: 'T', operator: 'eq' as const, value: '甲' }] } };
    expect(chooseRoutes([both, other], { A: 20, T: '甲' }, false).map((r) => r.to)).toEqual(['Big']);
    expect(chooseRoutes([both, other], { A: 20, T: '乙' }, false).map((r) => r.to)).toEqual(['Other']);
    expect(chooseRoutes([{ ...big, formula: '{A} >' }, other], { A: 500 }, false).map((r) => r.to)).toEqual(['Other']);
    // Dates through the formula language: the route reads the moment the flow moves.
    const late = { from: 'C', to: 'Late', isElse: false, formula: 'DATEDIF({D}, TODAY(), "D") > 30' };
    expect(chooseRoutes([late, other], { D: '2026-01-01T00:00:00+08:00' }, false, new Date('2026-03-01T00:00:00+08:00')).map((r) => r.to)).toEqual(['Late']);
    expect(chooseRoutes([late, other], { D: '2026-02-20T00:00:00+08:00' }, false, new Date('2026-03-01T00:00:00+08:00')).map((r) => r.to)).toEqual(['Other']);
  });

  it('a Condition route with only a formula counts as conditioned', () => {
    const issues = validateTemplate(parse({
      activities: [
        { code: 'S', name: '开始', type: 'Start' },
        { code: 'C', name: '判断', type: 'Condition' },
        { code: 'E', name: '结束', type: 'End' },
      ],
      routes: [{ from: 'S', to: 'C' }, { from: 'C', to: 'E', formula: '{A} > 1' }, { from: 'C', to: 'E', isElse: true }],
    }));
    expect(issues.filter((i) => i.rule === 'conditionMissing')).toEqual([]);
  });
});

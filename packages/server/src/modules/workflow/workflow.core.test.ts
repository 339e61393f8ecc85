import { describe, expect, it } from 'vitest';
import { WorkflowTemplate, type WorkflowTemplateInput } from '@tritium/shared/workflow/index';
import { applyAction, actionsOnItem, isOpen, startInstance, type Action, type Effect, type EngineState, type ItemRec } from './workflow.core.ts';

// The pure transition core, one test (or more) per row of shared/design/workflow.md's transition table, with no
// database: a state, an action, the new state and the effects.

type Acts = { type: 'Fill' | 'Approve'; code: string; [k: string]: unknown };
const S = { type: 'Start' as const, code: 'Start', name: '发起' };
const E = { type: 'End' as const, code: 'End', name: '结束' };
const some = { sources: [{ type: 'users' as const, ids: ['x'] }] };

/** Start → nodes in a line → End. */
function line(...nodes: Acts[]): WorkflowTemplateInput {
  const activities = [S, ...nodes.map((n) => ({ name: n.code, participants: some, ...n })), E] as WorkflowTemplateInput['activities'];
  const codes = activities.map((a) => a.code);
  return { activities, routes: codes.slice(1).map((to, i) => ({ from: codes[i], to })) };
}

function harness(input: WorkflowTemplateInput, participants: Record<string, string[]>, options: { values?: Record<string, unknown>; admins?: string[]; submit?: boolean } = {}) {
  const template = WorkflowTemplate.parse(input);
  let n = 0;
  const ctx = () => ({ now: new Date(), newId: () => `id${String(++n).padStart(4, '0')}`, template, values: options.values ?? {}, participantsOf: (c: string) => participants[c] ?? [], administrators: options.admins ?? ['admin'] });
  const effects: Effect[] = [];
  let state: EngineState = startInstance({ id: 'inst', schemaCode: 'S', objectId: 'O', version: 1, originator: 'orig', name: '报销' }, ctx()).state;
  const h = {
    get state() {
      return state;
    },
    effects,
    act(user: string, action: Action, isAdmin = false) {
      const out = applyAction(state, ctx(), { userId: user, isAdmin }, action);
      state = out.state;
      effects.push(...out.effects);
      return out;
    },
    item(user: string, code?: string): ItemRec {
      const item = state.items.find((i) => i.participant === user && isOpen(i) && (!code || i.activityCode === code));
      if (!item) throw new Error(`${user} has no open item${code ? ` on ${code}` : ''}`);
      return item;
    },
    submit: (user: string, code?: string) => h.act(user, { type: 'submit', itemId: h.item(user, code).id }),
    reject: (user: string, code?: string) => h.act(user, { type: 'reject', itemId: h.item(user, code).id }),
    running: () => state.tokens.filter((t) => t.state === 'Running').map((t) => t.activityCode),
    open: (code?: string) => state.items.filter((i) => isOpen(i) && (!code || i.activityCode === code)).map((i) => i.participant).sort(),
    tokens: (code: string) => state.tokens.filter((t) => t.activityCode === code),
    statuses: () => effects.filter((e) => e.type === 'recordStatus').map((e) => (e as { status: number }).status),
  };
  if (options.submit !== false) h.submit('orig');
  return h;
}

const code = (err: unknown) => (err as { errorName?: string }).errorName;
function throws(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return code(e);
  }
  return undefined;
}

describe('start and submit', () => {
  it('starts Starting with a Start token and a fill item for the originator; the submit makes it Running', () => {
    const h = harness(line({ type: 'Approve', code: 'A' }), { A: ['u1'] }, { submit: false });
    expect(h.state.instance.state).toBe('Starting');
    expect(h.state.tokens.map((t) => [t.activityCode, t.state])).toEqual([['Start', 'Running']]);
    expect(h.state.items).toEqual([expect.objectContaining({ participant: 'orig', itemType: 'fill', state: 'Waiting' })]);
    expect(h.statuses()).toEqual([]);
    h.submit('orig');
    expect(h.state.instance.state).toBe('Running');
    expect(h.statuses()).toEqual([2]);
    expect(h.running()).toEqual(['A']);
    expect(h.open()).toEqual(['u1']);
    expect(h.item('u1').itemType).toBe('approve');
  });

  it('finishes at End with approval 1, the record Effective and effective business rules', () => {
    const h = harness(line({ type: 'Fill', code: 'F' }, { type: 'Approve', code: 'A' }), { F: ['f1'], A: ['u1'] });
    h.submit('f1');
    h.submit('u1');
    expect(h.state.instance).toMatchObject({ state: 'Finished', approval: 1 });
    expect(h.statuses()).toEqual([2, 1]);
    expect(h.effects).toContainEqual({ type: 'businessRules', on: 'effective' });
    expect(h.tokens('End')[0].state).toBe('Finished');
  });

  it('answers "already handled" to a second action on the same item', () => {
    const h = harness(line({ type: 'Approve', code: 'A', approveExit: { type: 'count', value: 1 } }), { A: ['u1', 'u2'] });
    const late = h.item('u2');
    h.submit('u1');
    expect(throws(() => h.act('u2', { type: 'submit', itemId: late.id }))).toBe('WorkflowItemHandled');
    expect(throws(() => h.act('u3', { type: 'submit', itemId: late.id }))).toBe('WorkflowItemNotFound');
  });
});

describe('approve exits', () => {
  it('parallel, every participant (100%): passes on the last agree', () => {
    const h = harness(line({ type: 'Approve', code: 'A' }), { A: ['u1', 'u2', 'u3'] });
    expect(h.open()).toEqual(['u1', 'u2', 'u3']);
    h.submit('u1');
    h.submit('u2');
    expect(h.running()).toEqual(['A']);
    h.submit('u3');
    expect(h.state.instance.state).toBe('Finished');
    expect(h.tokens('A')[0]).toMatchObject({ state: 'Finished', agreeCount: 3, itemCount: 3 });
  });

  it('parallel by percentage: 60% of 5 passes on the third agree and cancels the open items', () => {
    const h = harness(line({ type: 'Approve', code: 'A', approveExit: { type: 'percentage', value: 60 } }, { type: 'Approve', code: 'B' }), { A: ['u1', 'u2', 'u3', 'u4', 'u5'], B: ['b'] });
    h.submit('u1');
    h.submit('u2');
    expect(h.running()).toEqual(['A']);
    h.submit('u3');
    expect(h.running()).toEqual(['B']);
    expect(h.state.items.filter((i) => i.activityCode === 'A').map((i) => i.state)).toEqual(['Finished', 'Finished', 'Finished', 'Canceled', 'Canceled']);
  });

  it('parallel by count: 2 of 4 passes on the second agree; a disagree below the exit changes nothing', () => {
    const h = harness(line({ type: 'Approve', code: 'A', approveExit: { type: 'count', value: 2 } }), { A: ['u1', 'u2', 'u3', 'u4'] });
    h.reject('u1');
    expect(h.running()).toEqual(['A']);
    h.submit('u2');
    h.submit('u3');
    expect(h.state.instance.state).toBe('Finished');
  });

  it('serial: one item at a time in the rule order; passes after the last', () => {
    const h = harness(line({ type: 'Approve', code: 'A', participateMethod: 'serial' }), { A: ['u2', 'u1', 'u3'] });
    expect(h.open()).toEqual(['u2']);
    h.submit('u2');
    expect(h.open()).toEqual(['u1']);
    h.submit('u1');
    expect(h.open()).toEqual(['u3']);
    h.submit('u3');
    expect(h.state.instance.state).toBe('Finished');
  });

  it('serial with a count: passes once the count is met without asking the rest', () => {
    const h = harness(line({ type: 'Approve', code: 'A', participateMethod: 'serial', approveExit: { type: 'count', value: 1 } }), { A: ['u1', 'u2'] });
    h.submit('u1');
    expect(h.state.instance.state).toBe('Finished');
    expect(h.state.items.some((i) => i.participant === 'u2')).toBe(false);
  });
});

describe('Reject and disapprove targets', () => {
  const fillThenApprove = (target: unknown, extra: Record<string, unknown> = {}) =>
    line({ type: 'Fill', code: 'F' }, { type: 'Approve', code: 'A', disapproveTarget: target, ...extra }, { type: 'Approve', code: 'B' });

  it('previous Fill (default): the node goes Back and the Fill node is reactivated for its previous participants', () => {
    const h = harness(fillThenApprove({ type: 'previousFill' }), { F: ['f1', 'f2'], A: ['u1'], B: ['b'] });
    h.submit('f1');
    h.submit('f2');
    h.reject('u1');
    expect(h.tokens('A')[0]).toMatchObject({ state: 'Back', approval: 0, disagreeCount: 1 });
    expect(h.running()).toEqual(['F']);
    expect(h.tokens('F')[1]).toMatchObject({ actionEvent: 'sendBack', participants: ['f1', 'f2'] });
    expect(h.open()).toEqual(['f1', 'f2']);
  });

  it('first Fill: back to the Start node, to the originator', () => {
    const h = harness(fillThenApprove({ type: 'firstFill' }), { F: ['f1'], A: ['u1'], B: ['b'] });
    h.submit('f1');
    h.reject('u1');
    expect(h.running()).toEqual(['Start']);
    expect(h.open()).toEqual(['orig']);
    h.submit('orig');
    expect(h.running()).toEqual(['F']);
  });

  it('a named node, and End as the named node ends the flow', () => {
    const h = harness(line({ type: 'Approve', code: 'A' }, { type: 'Approve', code: 'B', disapproveTarget: { type: 'activity', code: 'A' } }), { A: ['a'], B: ['b'] });
    h.submit('a');
    h.reject('b');
    expect(h.running()).toEqual(['A']);
    expect(h.open()).toEqual(['a']);
    const end = harness(line({ type: 'Approve', code: 'A', disapproveTarget: { type: 'activity', code: 'End' } }), { A: ['a'] });
    end.reject('a');
    expect(end.state.instance).toMatchObject({ state: 'Finished', approval: 0 });
  });

  it('reject the flow: Finished with approval 0, the record Canceled, no business rules', () => {
    const h = harness(fillThenApprove({ type: 'rejectFlow' }), { F: ['f1'], A: ['u1'], B: ['b'] });
    h.submit('f1');
    h.reject('u1');
    expect(h.state.instance).toMatchObject({ state: 'Finished', approval: 0 });
    expect(h.statuses()).toEqual([2, 3]);
    expect(h.effects.some((e) => e.type === 'businessRules')).toBe(false);
  });

  it('a disapprove exit by count: the second disagree of three sends back; by default one disagree does when all must agree', () => {
    const h = harness(fillThenApprove({ type: 'previousFill' }, { disapproveExit: { type: 'count', value: 2 }, approveExit: { type: 'count', value: 2 } }), { F: ['f1'], A: ['u1', 'u2', 'u3'], B: ['b'] });
    h.submit('f1');
    h.reject('u1');
    expect(h.running()).toEqual(['A']);
    h.reject('u2');
    expect(h.running()).toEqual(['F']);
    const d = harness(fillThenApprove({ type: 'previousFill' }), { F: ['f1'], A: ['u1', 'u2'], B: ['b'] });
    d.submit('f1');
    d.reject('u2');
    expect(d.running()).toEqual(['F']);
  });

  it('Reject is for approve items only', () => {
    const h = harness(line({ type: 'Fill', code: 'F' }), { F: ['f1'] });
    expect(throws(() => h.reject('f1'))).toBe('WorkflowActionNotPermitted');
  });
});

describe('branches', () => {
  const branches: WorkflowTemplateInput = {
    activities: [
      S,
      { type: 'Condition', code: 'C', name: '金额' },
      { type: 'Approve', code: 'Big', name: '总经理', participants: some },
      { type: 'Approve', code: 'Small', name: '主管', participants: some },
      E,
    ],
    routes: [
      { from: 'Start', to: 'C' },
      { from: 'C', to: 'Big', condition: { rules: [{ field: 'Amount', operator: 'gt', value: 1000 }] } },
      { from: 'C', to: 'Small', isElse: true },
      { from: 'Big', to: 'End' },
      { from: 'Small', to: 'End' },
    ],
  };

  it('a Condition takes the matching route, else the else route', () => {
    expect(harness(branches, { Big: ['g'], Small: ['s'] }, { values: { Amount: '5000.00' } }).running()).toEqual(['Big']);
    expect(harness(branches, { Big: ['g'], Small: ['s'] }, { values: { Amount: 20 } }).running()).toEqual(['Small']);
    expect(harness(branches, { Big: ['g'], Small: ['s'] }, { values: {} }).running()).toEqual(['Small']);
  });

  const split: WorkflowTemplateInput = {
    activities: [
      S,
      { type: 'Parallel', code: 'P', name: '会签' },
      { type: 'Approve', code: 'X', name: '财务', participants: some },
      { type: 'Approve', code: 'Y', name: '法务', participants: some },
      { type: 'Join', code: 'J', name: '汇聚' },
      { type: 'Approve', code: 'Z', name: '总经理', participants: some },
      E,
    ],
    routes: [
      { from: 'Start', to: 'P' },
      { from: 'P', to: 'X' },
      { from: 'P', to: 'Y' },
      { from: 'X', to: 'J' },
      { from: 'Y', to: 'J' },
      { from: 'J', to: 'Z' },
      { from: 'Z', to: 'End' },
    ],
  };

  it('a Parallel split runs every branch; the Join fires once, when the last branch arrives', () => {
    const h = harness(split, { X: ['x'], Y: ['y'], Z: ['z'] });
    expect(h.running().sort()).toEqual(['X', 'Y']);
    h.submit('x');
    expect(h.running().sort()).toEqual(['J', 'Y']);
    h.submit('y');
    expect(h.tokens('J')).toHaveLength(1);
    expect(h.tokens('J')[0].state).toBe('Finished');
    expect(h.running()).toEqual(['Z']);
    h.submit('z');
    expect(h.state.instance.state).toBe('Finished');
  });

  it('a send-back before the split drops every branch and the waiting Join; the split runs again', () => {
    const t = structuredClone(split);
    (t.activities[3] as Record<string, unknown>).disapproveTarget = { type: 'rejectFlow' };
    (t.activities[2] as Record<string, unknown>).disapproveTarget = { type: 'firstFill' };
    const h = harness(t, { X: ['x'], Y: ['y'], Z: ['z'] });
    h.submit('y');
    h.reject('x');
    // Back to the Start: every token ahead of it (the waiting Join included) is dropped.
    expect(h.running()).toEqual(['Start']);
    expect(h.tokens('J')[0].state).toBe('Dropped');
    h.submit('orig');
    expect(h.running().sort()).toEqual(['X', 'Y']);
  });
});

describe('nobody found', () => {
  it('to the administrator', () => {
    const h = harness(line({ type: 'Approve', code: 'A' }), { A: [] }, { admins: ['adm1', 'adm2'] });
    expect(h.open()).toEqual(['adm1', 'adm2']);
  });

  it('auto-pass: the node agrees by itself (action event automatic) and the flow goes on', () => {
    const h = harness(line({ type: 'Approve', code: 'A', participants: { sources: some.sources, whenEmpty: 'autoPass' } }, { type: 'Approve', code: 'B' }), { A: [], B: ['b'] });
    expect(h.tokens('A')[0]).toMatchObject({ state: 'Finished', approval: 1, skipped: true, actionEvent: 'automatic' });
    expect(h.running()).toEqual(['B']);
  });
});

describe('item actions', () => {
  const permitted = (...actions: string[]) => line({ type: 'Approve', code: 'A', permittedActions: actions }, { type: 'Approve', code: 'B', permittedActions: actions });

  it('ForBack: to a chosen earlier finished node (action event backward); refused when not permitted or not earlier', () => {
    const h = harness(permitted('sendBack'), { A: ['a'], B: ['b'] });
    expect(throws(() => h.act('a', { type: 'forback', itemId: h.item('a').id, activityCode: 'B' }))).toBe('WorkflowActivityInvalid');
    h.submit('a');
    h.act('b', { type: 'forback', itemId: h.item('b').id, activityCode: 'Start' });
    expect(h.running()).toEqual(['Start']);
    expect(h.tokens('Start')[1].actionEvent).toBe('backward');
    expect(h.tokens('B')[0].state).toBe('Back');
    const n = harness(line({ type: 'Approve', code: 'A' }), { A: ['a'] });
    expect(throws(() => n.act('a', { type: 'forback', itemId: n.item('a').id, activityCode: 'Start' }))).toBe('WorkflowActionNotPermitted');
  });

  it('Forward: the item is Forwarded and the receiver gets one on the same token with the delegant', () => {
    const h = harness(permitted('forward'), { A: ['a'], B: ['b'] });
    const first = h.item('a');
    h.act('a', { type: 'forward', itemId: first.id, to: 'c' });
    expect(h.state.items.find((i) => i.id === first.id)!.state).toBe('Forwarded');
    expect(h.item('c')).toMatchObject({ delegant: 'a', tokenId: first.tokenId, actionEvent: 'forward' });
    expect(h.tokens('A')[0].participants).toEqual(['c']);
    h.submit('c');
    expect(h.running()).toEqual(['B']);
    expect(throws(() => h.act('b', { type: 'forward', itemId: h.item('b').id, to: 'b' }))).toBe('WorkflowParticipantInvalid');
  });

  it('TempAddition before: the original waits until every added signer agrees, then decides', () => {
    const h = harness(permitted('addSigner'), { A: ['a'], B: ['b'] });
    const original = h.item('a');
    h.act('a', { type: 'addsign', itemId: original.id, position: 'before', userIds: ['p', 'q'] });
    expect(h.open('A')).toEqual(['a', 'p', 'q']);
    expect(throws(() => h.submit('a'))).toBe('WorkflowItemSuspended');
    expect(actionsOnItem(WorkflowTemplate.parse(permitted('addSigner')), h.item('a'), h.state)).toEqual([]);
    h.submit('p');
    expect(throws(() => h.submit('a'))).toBe('WorkflowItemSuspended');
    h.submit('q');
    expect(h.item('a').state).toBe('Working');
    expect(h.running()).toEqual(['A']);
    h.submit('a');
    expect(h.running()).toEqual(['B']);
    // Added signers cannot add again.
    const again = harness(permitted('addSigner'), { A: ['a'], B: ['b'] });
    again.act('a', { type: 'addsign', itemId: again.item('a').id, position: 'before', userIds: ['p'] });
    expect(throws(() => again.act('p', { type: 'addsign', itemId: again.item('p').id, position: 'before', userIds: ['q'] }))).toBe('WorkflowActionNotPermitted');
  });

  it('TempAddition after: the original is Finished and the token waits for every added signer', () => {
    const h = harness(permitted('addSigner'), { A: ['a'], B: ['b'] });
    h.act('a', { type: 'addsign', itemId: h.item('a').id, position: 'after', userIds: ['p', 'q'] });
    expect(h.state.items.find((i) => i.participant === 'a')!.state).toBe('Finished');
    h.submit('p');
    expect(h.running()).toEqual(['A']);
    h.submit('q');
    expect(h.running()).toEqual(['B']);
  });

  it('TempAddition after: an added signer who disagrees turns the node into a disagree', () => {
    const h = harness(permitted('addSigner'), { A: ['a'], B: ['b'] });
    h.act('a', { type: 'addsign', itemId: h.item('a').id, position: 'after', userIds: ['p', 'q'] });
    h.reject('p');
    expect(h.tokens('A')[0]).toMatchObject({ state: 'Back', agreeCount: 0, disagreeCount: 1 });
    expect(h.running()).toEqual(['Start']);
  });

  it('ForComment: a consult item for the asked user; the answer is a comment and the original stays open', () => {
    const h = harness(permitted('consult'), { A: ['a'], B: ['b'] });
    h.act('a', { type: 'consult', itemId: h.item('a').id, userIds: ['c'] });
    expect(h.item('c')).toMatchObject({ kind: 'consult', actionEvent: 'forComment' });
    const out = h.act('c', { type: 'submit', itemId: h.item('c').id, opinion: { text: '建议同意' } });
    expect(out.state.comments).toEqual([expect.objectContaining({ action: 'consultReply', text: '建议同意', userId: 'c' })]);
    expect(h.running()).toEqual(['A']);
    expect(h.open()).toEqual(['a']);
  });
});

describe('instance actions', () => {
  it('RetrieveInstance: allowed while the next node has not acted; its tokens Revoke and the user gets the node back', () => {
    const h = harness(line({ type: 'Approve', code: 'A', approveExit: { type: 'count', value: 1 } }, { type: 'Approve', code: 'B' }), { A: ['a1', 'a2'], B: ['b'] });
    h.act('orig', { type: 'retrieve' });
    expect(h.tokens('A')[0].state).toBe('Revoke');
    expect(h.state.items.filter((i) => i.activityCode === 'A').map((i) => i.state)).toEqual(['Revoked', 'Revoked']);
    expect(h.running()).toEqual(['Start']);
    h.submit('orig');
    // Refused once somebody of the next node acted.
    h.submit('a1');
    expect(throws(() => h.act('orig', { type: 'retrieve' }))).toBe('WorkflowRetrieveRefused');
    // Refused where the node does not permit it (Approve nodes permit nothing by default).
    expect(throws(() => h.act('a1', { type: 'retrieve' }))).toBe('WorkflowActionNotPermitted');
  });

  it('RetrieveInstance: refused when a started-on node was consulted or forwarded meanwhile', () => {
    const h = harness(line({ type: 'Approve', code: 'A', permittedActions: ['forward'] }), { A: ['a'] });
    h.act('a', { type: 'forward', itemId: h.item('a').id, to: 'c' });
    expect(throws(() => h.act('orig', { type: 'retrieve' }))).toBe('WorkflowRetrieveRefused');
  });

  it('CancelInstance: Canceled, tokens Dropped, open items Canceled, record Canceled; permission needed', () => {
    const h = harness(line({ type: 'Approve', code: 'A', permittedActions: ['cancel'] }), { A: ['a'] });
    expect(throws(() => h.act('someone', { type: 'cancel' }))).toBe('WorkflowActionNotPermitted');
    h.act('a', { type: 'cancel' });
    expect(h.state.instance.state).toBe('Canceled');
    expect(h.tokens('A')[0].state).toBe('Dropped');
    expect(h.state.items.at(-1)!.state).toBe('Canceled');
    expect(h.statuses()).toEqual([2, 3]);
    expect(throws(() => h.act('a', { type: 'cancel' }, true))).toBe('WorkflowStateInvalid');
  });

  it('FinishInstance: Finished, record Effective, business rules; by an administrator', () => {
    const h = harness(line({ type: 'Approve', code: 'A' }, { type: 'Approve', code: 'B' }), { A: ['a'], B: ['b'] });
    expect(throws(() => h.act('a', { type: 'finish' }))).toBe('WorkflowActionNotPermitted');
    h.act('boss', { type: 'finish' }, true);
    expect(h.state.instance).toMatchObject({ state: 'Finished', approval: 1 });
    expect(h.statuses()).toEqual([2, 1]);
    expect(h.effects).toContainEqual({ type: 'businessRules', on: 'effective' });
    expect(h.open()).toEqual([]);
  });

  it('Circulate node: to-read items, the flow does not wait; reading marks them Finished', () => {
    const t = line({ type: 'Approve', code: 'A' });
    t.activities.splice(1, 0, { type: 'Circulate', code: 'CC', name: '抄送', participants: some });
    t.routes = [
      { from: 'Start', to: 'CC' },
      { from: 'CC', to: 'A' },
      { from: 'A', to: 'End' },
    ];
    const h = harness(t, { CC: ['r1', 'r2'], A: ['a'] });
    expect(h.running()).toEqual(['A']);
    expect(h.item('r1').itemType).toBe('circulate');
    h.act('r1', { type: 'read' });
    expect(h.state.items.find((i) => i.participant === 'r1')!.state).toBe('Finished');
    h.submit('a');
    // Finishing the flow leaves to-read items open.
    expect(h.item('r2').state).toBe('Waiting');
  });

  it('circulate as an action: to-read items for the receivers on the actor\'s node', () => {
    const h = harness(line({ type: 'Approve', code: 'A', permittedActions: ['circulate'] }), { A: ['a'] });
    h.act('a', { type: 'circulate', itemId: h.item('a').id, userIds: ['r'] });
    expect(h.item('r')).toMatchObject({ itemType: 'circulate', activityCode: 'A' });
    expect(h.running()).toEqual(['A']);
  });

  it('urge: every open item flagged, a reminder with the content to each participant', () => {
    const h = harness(line({ type: 'Approve', code: 'A' }), { A: ['a', 'b'] });
    expect(throws(() => h.act('a', { type: 'urge', content: '请尽快' }))).toBe('WorkflowActionNotPermitted');
    h.act('orig', { type: 'urge', content: '请尽快' });
    expect(h.state.items.filter(isOpen).every((i) => i.urged)).toBe(true);
    expect(h.effects).toContainEqual({ type: 'remind', userIds: ['a', 'b'], content: '请尽快' });
  });

  it('reactivate: a finished instance Running again at the chosen activity with the chosen users (adjust)', () => {
    const h = harness(line({ type: 'Approve', code: 'A' }, { type: 'Approve', code: 'B' }), { A: ['a'], B: ['b'] });
    h.submit('a');
    h.submit('b');
    expect(throws(() => h.act('a', { type: 'reactivate', activityCode: 'A', userIds: ['z'] }))).toBe('WorkflowActionNotPermitted');
    expect(throws(() => h.act('boss', { type: 'reactivate', activityCode: 'End', userIds: ['z'] }, true))).toBe('WorkflowActivityInvalid');
    h.act('boss', { type: 'reactivate', activityCode: 'A', userIds: ['z'] }, true);
    expect(h.state.instance).toMatchObject({ state: 'Running', approval: -1, finishedTime: null });
    expect(h.tokens('A')[1]).toMatchObject({ actionEvent: 'adjust', participants: ['z'] });
    expect(h.statuses()).toEqual([2, 1, 2]);
    expect(h.effects).toContainEqual({ type: 'businessRules', on: 'void' });
    expect(throws(() => h.act('boss', { type: 'reactivate', activityCode: 'A', userIds: ['z'] }, true))).toBe('WorkflowStateInvalid');
  });

  it('the input state is never changed', () => {
    const h = harness(line({ type: 'Approve', code: 'A' }), { A: ['a'] });
    const before = structuredClone(h.state);
    const template = WorkflowTemplate.parse(line({ type: 'Approve', code: 'A' }));
    applyAction(before, { now: new Date(), newId: () => 'n1', template, values: {}, participantsOf: () => [], administrators: [] }, { userId: 'a', isAdmin: false }, { type: 'submit', itemId: h.item('a').id });
    expect(before).toEqual(h.state);
  });
});

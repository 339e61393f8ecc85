import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { ActionEvent, TokenState, WorkItemState } from '@tritium/shared/constants/workflow';
import { chooseRoutes, deadlineOf, exitNeed, isHandled, timeLimitOf, type Activity, type PermittedAction, type WorkflowTemplate } from '@tritium/shared/workflow/index';
import type { ErrorName } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { isOpen, type Approval, type CoreContext, type CommentRec, type Effect, type EngineState, type ItemRec, type Opinion, type TokenRec } from './workflow.core-types.ts';

// The transition machine's ground floor (shared/design/workflow.md "Transitions"; docs/decisions/0014): its records
// (tokens, items, log), activation of a node — who takes part in it — routing onward, joins and exits. The actions
// on items (workflow.item-actions.ts) and on the instance (workflow.instance-actions.ts) build on it.

export const err = (name: ErrorName, detail?: unknown) => new AppError(name, { detail });

export class Transitions {
  readonly effects: Effect[] = [];
  private readonly byCode: Map<string, Activity>;
  private readonly reach = new Map<string, Set<string>>();

  constructor(
    readonly s: EngineState,
    readonly ctx: CoreContext,
  ) {
    this.byCode = new Map(ctx.template.activities.map((a) => [a.code, a]));
  }

  get instance() {
    return this.s.instance;
  }

  activity(code: string): Activity {
    const a = this.byCode.get(code);
    if (!a) throw err('WorkflowActivityInvalid', { activityCode: code });
    return a;
  }

  permits(code: string, action: PermittedAction): boolean {
    const a = this.byCode.get(code);
    return !!a && 'permittedActions' in a && a.permittedActions.includes(action);
  }

  /** Activities reachable from `code` by routes (itself excluded unless on a cycle). */
  reachable(code: string): Set<string> {
    let set = this.reach.get(code);
    if (set) return set;
    set = new Set();
    const stack = [code];
    while (stack.length) {
      const c = stack.pop()!;
      for (const r of this.ctx.template.routes) if (r.from === c && !set.has(r.to)) (set.add(r.to), stack.push(r.to));
    }
    this.reach.set(code, set);
    return set;
  }

  token(id: string): TokenRec {
    return this.s.tokens.find((t) => t.id === id)!;
  }

  log(entry: Partial<CommentRec> & { userId: string; action: string }, opinion?: Opinion) {
    this.s.comments.push({
      id: this.ctx.newId(),
      tokenId: null,
      workItemId: null,
      activityCode: null,
      text: opinion?.text ?? '',
      approval: -1,
      signature: opinion?.signature ?? null,
      attachmentIds: opinion?.attachmentIds ?? [],
      receivers: [],
      createdTime: this.ctx.now,
      ...entry,
    });
  }

  touch() {
    this.instance.modifiedTime = this.ctx.now;
  }

  newToken(code: string, preTokens: string[], event: ActionEvent | null): TokenRec {
    const t: TokenRec = {
      id: this.ctx.newId(),
      seq: this.instance.nextSeq++,
      activityCode: code,
      state: 'Running',
      approval: -1,
      participants: [],
      itemCount: 0,
      agreeCount: 0,
      disagreeCount: 0,
      retrievable: true,
      preTokens,
      actionEvent: event,
      skipped: false,
      createdTime: this.ctx.now,
      finishedTime: null,
    };
    this.s.tokens.push(t);
    return t;
  }

  newItem(token: TokenRec, participant: string, options: Partial<ItemRec> = {}): ItemRec {
    if (this.s.items.some((i) => i.tokenId === token.id && i.participant === participant && isOpen(i))) {
      throw err('WorkflowParticipantInvalid', { userId: participant, reason: 'alreadyOpen' });
    }
    const a = this.activity(token.activityCode);
    const item: ItemRec = {
      id: this.ctx.newId(),
      tokenId: token.id,
      activityCode: token.activityCode,
      itemType: a.type === 'Approve' ? 'approve' : a.type === 'Circulate' ? 'circulate' : a.type === 'ChildInstance' ? 'childInstance' : 'fill',
      kind: 'normal',
      participant,
      finisher: null,
      delegant: null,
      sourceItemId: null,
      state: 'Waiting',
      approval: -1,
      actionEvent: token.actionEvent,
      urged: false,
      sort: this.s.items.filter((i) => i.tokenId === token.id).length,
      createdTime: this.ctx.now,
      finishedTime: null,
      dueTime: null,
      ...options,
    };
    // A time limit counts from the item's arrival (docs/decisions/0042); normal fill and approve items only.
    const limit = item.kind === 'normal' && (item.itemType === 'fill' || item.itemType === 'approve') ? timeLimitOf(a) : null;
    if (limit) item.dueTime = deadlineOf(limit, item.createdTime);
    this.s.items.push(item);
    if (item.itemType !== 'circulate' && item.kind === 'normal') token.itemCount++;
    return item;
  }

  closeToken(token: TokenRec, state: TokenState, approval: Approval = token.approval) {
    token.state = state;
    token.approval = approval;
    token.finishedTime = this.ctx.now;
  }

  /** Cancels a token's open items (not to-read ones: reading stays possible). */
  cancelOpenItems(token: TokenRec, state: WorkItemState = 'Canceled') {
    for (const i of this.s.items) {
      if (i.tokenId === token.id && isOpen(i) && i.itemType !== 'circulate') {
        i.state = state;
        i.finishedTime = this.ctx.now;
      }
    }
  }

  // ---- activation and routing ------------------------------------------------------------------------------

  activate(code: string, preTokens: string[], event: ActionEvent | null, forced?: string[]): void {
    const a = this.activity(code);
    if (a.type === 'Join') return this.arriveAtJoin(code, preTokens);
    const token = this.newToken(code, preTokens, event);
    switch (a.type) {
      case 'Start': {
        token.participants = [this.instance.originator];
        this.newItem(token, this.instance.originator);
        return;
      }
      case 'Fill':
      case 'Approve': {
        let people = [...new Set(forced?.length ? forced : this.ctx.participantsOf(code))];
        if (!people.length && a.participants.whenEmpty === 'administrator') people = [...new Set(this.ctx.administrators)];
        if (!people.length) {
          // Nobody found and the node passes automatically (or no administrator either): agree and go on.
          token.skipped = true;
          token.actionEvent = 'automatic';
          this.closeToken(token, 'Finished', 1);
          this.log({ userId: this.instance.originator, action: 'autoPass', tokenId: token.id, activityCode: code, approval: 1 });
          return this.routeOnward(token);
        }
        token.participants = people;
        const first = a.participateMethod === 'serial' ? people.slice(0, 1) : people;
        for (const p of first) this.newItem(token, p);
        return;
      }
      case 'Circulate': {
        const people = [...new Set(forced?.length ? forced : this.ctx.participantsOf(code))];
        token.participants = people;
        for (const p of people) this.newItem(token, p);
        if (people.length) this.effects.push({ type: 'remind', userIds: people, content: `抄送：${this.instance.name}` });
        token.skipped = true;
        this.closeToken(token, 'Finished', 1);
        return this.routeOnward(token);
      }
      case 'End': {
        this.closeToken(token, 'Finished', 1);
        if (!this.s.tokens.some((t) => t.state === 'Running')) this.finishInstance(1);
        return;
      }
      case 'ChildInstance': {
        // The originator's child flow; waiting, the node holds a child-instance item (not a todo) until it ends.
        token.participants = [this.instance.originator];
        this.effects.push({ type: 'startChild', tokenId: token.id, activityCode: code });
        if (a.wait) {
          this.newItem(token, this.instance.originator, { state: 'Working', actionEvent: 'automatic' });
          return;
        }
        token.actionEvent = 'automatic';
        this.closeToken(token, 'Finished', 1);
        return this.routeOnward(token);
      }
      default: {
        // Condition, Parallel: they pass by themselves.
        token.skipped = true;
        this.closeToken(token, 'Finished', 1);
        return this.routeOnward(token);
      }
    }
  }

  routeOnward(token: TokenRec): void {
    const a = this.activity(token.activityCode);
    const routes = this.ctx.template.routes.filter((r) => r.from === a.code);
    // The record's values only when a route has a condition: reading them may cost the action a statement.
    const values = routes.some((r) => r.condition || r.formula) ? this.ctx.values : {};
    const chosen = chooseRoutes(routes, values, a.type === 'Parallel', this.ctx.now);
    if (!chosen.length) throw err('WorkflowNoRoute', { activityCode: a.code });
    for (const r of chosen) {
      if (this.instance.state !== 'Running' && this.instance.state !== 'Starting') return;
      this.activate(r.to, [token.id], 'forward');
    }
  }

  /** A branch arrives at a Join: it fires once no running token elsewhere can still reach it. */
  arriveAtJoin(code: string, preTokens: string[]) {
    let join = this.s.tokens.find((t) => t.activityCode === code && t.state === 'Running');
    if (join) join.preTokens = [...join.preTokens, ...preTokens];
    else join = this.newToken(code, preTokens, 'forward');
    this.tryJoin(join);
  }

  tryJoin(join: TokenRec) {
    const waiting = this.s.tokens.some((t) => t.id !== join.id && t.state === 'Running' && this.reachable(t.activityCode).has(join.activityCode));
    if (waiting) return;
    join.skipped = true;
    this.closeToken(join, 'Finished', 1);
    this.routeOnward(join);
  }

  /** Drops the running tokens a return to `code` would reach again (other parallel branches keep running). */
  dropReachableFrom(code: string, except: TokenRec[] = []) {
    const ahead = this.reachable(code);
    for (const t of this.s.tokens) {
      if (t.state !== 'Running' || except.includes(t)) continue;
      if (t.activityCode === code || ahead.has(t.activityCode)) {
        this.closeToken(t, 'Dropped');
        this.cancelOpenItems(t);
      }
    }
  }

  /** Who acted on an activity's latest finished activation (its previous participants). */
  previousParticipants(code: string): string[] | undefined {
    if (this.activity(code).type === 'Start') return [this.instance.originator];
    const token = [...this.s.tokens].filter((t) => t.activityCode === code && t.state !== 'Running' && t.state !== 'Revoke').sort((x, y) => y.seq - x.seq)[0];
    if (!token) return undefined;
    const people = this.s.items.filter((i) => i.tokenId === token.id && i.kind === 'normal' && i.state === 'Finished').map((i) => i.finisher ?? i.participant);
    return people.length ? [...new Set(people)] : token.participants.length ? token.participants : undefined;
  }

  goBack(code: string, from: TokenRec, event: ActionEvent) {
    this.dropReachableFrom(code, [from]);
    this.activate(code, [from.id], event, this.previousParticipants(code));
  }

  finishInstance(approval: 0 | 1) {
    const wasRunning = this.instance.state;
    this.instance.state = 'Finished';
    this.instance.approval = approval;
    this.instance.finishedTime = this.ctx.now;
    for (const t of this.s.tokens) {
      if (t.state === 'Running') {
        this.closeToken(t, 'Dropped');
        this.cancelOpenItems(t);
      }
    }
    if (wasRunning === 'Finished') return;
    // docs/decisions/0014: a flow vetoed ("reject the flow") never makes the record effective; it is Canceled.
    this.effects.push({ type: 'recordStatus', status: approval === 1 ? BizObjectStatus.Effective : BizObjectStatus.Canceled });
    if (approval === 1) this.effects.push({ type: 'businessRules', on: 'effective' });
  }

  // ---- exits -----------------------------------------------------------------------------------------------

  /** After a vote: pass, send back, hand to the next serial participant, or wait. */
  evaluate(token: TokenRec) {
    if (token.state !== 'Running') return;
    const tokenItems = this.s.items.filter((i) => i.tokenId === token.id);
    if (tokenItems.some((i) => isOpen(i) && (i.kind === 'before' || i.kind === 'after'))) return;
    const a = this.activity(token.activityCode);
    if (a.type === 'Start') {
      if (token.agreeCount >= 1) this.pass(token);
      return;
    }
    if (a.type !== 'Fill' && a.type !== 'Approve') return;
    const total = Math.max(1, token.participants.length);
    const need = exitNeed(a.approveExit, total);
    const disNeed = a.disapproveExit ? exitNeed(a.disapproveExit, total) : total - need + 1;
    if (token.agreeCount >= need) return this.pass(token);
    if (token.disagreeCount >= disNeed) return this.disapprove(token);
    const openNormal = tokenItems.some((i) => isOpen(i) && i.kind === 'normal');
    if (openNormal) return;
    const voted = token.agreeCount + token.disagreeCount;
    if (a.participateMethod === 'serial' && voted < token.participants.length) {
      this.newItem(token, token.participants[voted]);
      return;
    }
    // Everybody voted and neither exit was reached: the approve exit can no longer be met.
    this.disapprove(token);
  }

  pass(token: TokenRec) {
    this.closeToken(token, 'Finished', 1);
    this.cancelOpenItems(token);
    this.routeOnward(token);
  }

  disapprove(token: TokenRec) {
    const a = this.activity(token.activityCode);
    this.closeToken(token, 'Back', 0);
    this.cancelOpenItems(token);
    if (a.type !== 'Fill' && a.type !== 'Approve') return;
    const target = a.disapproveTarget;
    const finishedFills = this.s.tokens
      .filter((t) => t.state === 'Finished' && t.seq < token.seq && ['Start', 'Fill'].includes(this.activity(t.activityCode).type))
      .sort((x, y) => x.seq - y.seq);
    let code: string | undefined;
    if (target.type === 'rejectFlow') code = undefined;
    else if (target.type === 'firstFill') code = finishedFills[0]?.activityCode;
    else if (target.type === 'previousFill') code = finishedFills.at(-1)?.activityCode;
    else code = this.activity(target.code).type === 'End' ? undefined : target.code;
    if (!code) {
      this.log({ userId: this.instance.originator, action: 'rejectFlow', tokenId: token.id, activityCode: a.code, approval: 0 });
      return this.finishInstance(0);
    }
    this.goBack(code, token, 'sendBack');
  }
}

/**
 * The nodes an item may be sent back to (退回): a start, fill or approve node other than the item's own whose token
 * finished — not by passing by itself — earlier than the item's token (GET /v1/workflow/instance/activity/pre).
 */
export function sendBackTargets(state: EngineState, template: WorkflowTemplate, item: ItemRec): string[] {
  const token = state.tokens.find((t) => t.id === item.tokenId);
  if (!token) return [];
  const type = new Map(template.activities.map((a) => [a.code, a.type]));
  const codes = state.tokens
    .filter((t) => t.state === 'Finished' && t.seq < token.seq && !t.skipped && t.activityCode !== item.activityCode && isHandled(type.get(t.activityCode) ?? ''))
    .map((t) => t.activityCode);
  return [...new Set(codes)];
}

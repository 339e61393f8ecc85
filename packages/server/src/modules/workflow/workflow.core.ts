import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { ActionEvent, TokenState, WorkItemState, WorkItemType } from '@tritium/shared/constants/workflow';
import { chooseRoutes, exitNeed, isHandled, type Activity, type PermittedAction, type WorkflowTemplate } from '@tritium/shared/workflow/index';
import type { ErrorName } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';

// The pure transition core of the workflow engine (shared/design/workflow.md "Transitions"; docs/decisions/0014).
// Given an instance's state (instance, tokens, items), its template, the record's values and the participants the
// rules resolve to, an action gives the new state and the effects on the world (the record's status, reminders,
// business rules). No I/O: the service loads the state under the instance's row lock, applies, and writes the diff.

export type InstanceState = 'Initiated' | 'Starting' | 'Running' | 'Finishing' | 'Finished' | 'Canceled';
export type Approval = -1 | 0 | 1;
export type ItemKind = 'normal' | 'before' | 'after' | 'consult';

export interface InstanceRec {
  id: string;
  schemaCode: string;
  objectId: string;
  version: number;
  originator: string;
  name: string;
  state: InstanceState;
  approval: Approval;
  nextSeq: number;
  createdTime: Date;
  modifiedTime: Date;
  finishedTime: Date | null;
  /** A child flow's parent instance and the ChildInstance token that made it (null for a top-level flow). */
  parentInstanceId: string | null;
  parentTokenId: string | null;
}

export interface TokenRec {
  id: string;
  seq: number;
  activityCode: string;
  state: TokenState;
  approval: Approval;
  participants: string[];
  itemCount: number;
  agreeCount: number;
  disagreeCount: number;
  retrievable: boolean;
  preTokens: string[];
  actionEvent: ActionEvent | null;
  skipped: boolean;
  createdTime: Date;
  finishedTime: Date | null;
}

export interface ItemRec {
  id: string;
  tokenId: string;
  activityCode: string;
  itemType: WorkItemType;
  kind: ItemKind;
  participant: string;
  finisher: string | null;
  delegant: string | null;
  sourceItemId: string | null;
  state: WorkItemState;
  approval: Approval;
  actionEvent: ActionEvent | null;
  urged: boolean;
  sort: number;
  createdTime: Date;
  finishedTime: Date | null;
}

export interface CommentRec {
  id: string;
  tokenId: string | null;
  workItemId: string | null;
  activityCode: string | null;
  userId: string;
  action: string;
  text: string;
  approval: Approval;
  signature: string | null;
  attachmentIds: string[];
  receivers: string[];
  createdTime: Date;
}

export interface EngineState {
  instance: InstanceRec;
  tokens: TokenRec[];
  items: ItemRec[];
  /** Log entries this action writes (the service never loads old ones into the core). */
  comments: CommentRec[];
}

export interface CoreContext {
  now: Date;
  newId(): string;
  template: WorkflowTemplate;
  /** The record's values (conditions read them). */
  values: Record<string, unknown>;
  /** The users an activity's participant rule resolves to (active users, in rule order). */
  participantsOf(activityCode: string): string[];
  /** Who gets a node nobody was found for ("to the administrator"). */
  administrators: string[];
}

export interface Opinion {
  text?: string;
  signature?: string | null;
  attachmentIds?: string[];
}

export interface Actor {
  userId: string;
  /** Administers the form's app (reactivate; cancel, finish and urge without a permitted item). */
  isAdmin: boolean;
}

export type Action =
  | { type: 'submit'; itemId: string; opinion?: Opinion }
  | { type: 'reject'; itemId: string; opinion?: Opinion }
  | { type: 'forback'; itemId: string; activityCode: string; opinion?: Opinion }
  | { type: 'forward'; itemId: string; to: string; opinion?: Opinion }
  | { type: 'addsign'; itemId: string; position: 'before' | 'after'; userIds: string[]; opinion?: Opinion }
  | { type: 'consult'; itemId: string; userIds: string[]; opinion?: Opinion }
  | { type: 'retrieve'; opinion?: Opinion }
  | { type: 'cancel'; opinion?: Opinion }
  | { type: 'finish'; opinion?: Opinion }
  | { type: 'circulate'; userIds: string[]; itemId?: string; opinion?: Opinion }
  | { type: 'read'; itemIds?: string[] }
  | { type: 'urge'; content: string }
  | { type: 'reactivate'; activityCode: string; userIds: string[]; opinion?: Opinion }
  /** Internal: a child flow this instance waits for ended (agreed 1; vetoed or cancelled 0). */
  | { type: 'childDone'; tokenId: string; approval: 0 | 1 };

export type Effect =
  | { type: 'recordStatus'; status: BizObjectStatus }
  | { type: 'remind'; userIds: string[]; content: string }
  | { type: 'businessRules'; on: 'effective' | 'void' }
  /** A ChildInstance node was reached: the service makes the child record and starts its flow. */
  | { type: 'startChild'; tokenId: string; activityCode: string };

export interface Outcome {
  state: EngineState;
  effects: Effect[];
}

const OPEN: WorkItemState[] = ['Waiting', 'Working'];
export const isOpen = (item: ItemRec): boolean => OPEN.includes(item.state);
const AUTO = new Set(['Condition', 'Parallel', 'Join', 'Circulate', 'ChildInstance']);

const err = (name: ErrorName, detail?: unknown) => new AppError(name, { detail });

class Machine {
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
      ...options,
    };
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
    const chosen = chooseRoutes(routes, this.ctx.values, a.type === 'Parallel', this.ctx.now);
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

  // ---- actions on items --------------------------------------------------------------------------------------

  openItemOf(itemId: string, userId: string): ItemRec {
    const item = this.s.items.find((i) => i.id === itemId);
    if (!item || item.participant !== userId) throw err('WorkflowItemNotFound', { workItemId: itemId });
    if (!isOpen(item) || (this.instance.state !== 'Running' && this.instance.state !== 'Starting')) {
      throw err('WorkflowItemHandled', { workItemId: itemId, state: item.state });
    }
    if (this.s.items.some((i) => i.sourceItemId === item.id && i.kind === 'before' && isOpen(i))) {
      throw err('WorkflowItemSuspended', { workItemId: itemId });
    }
    return item;
  }

  require(item: ItemRec, action: PermittedAction) {
    if (item.kind !== 'normal' || !this.permits(item.activityCode, action)) throw err('WorkflowActionNotPermitted', { action, activityCode: item.activityCode });
  }

  finishItem(item: ItemRec, userId: string, approval: Approval, event: ActionEvent | null = item.actionEvent) {
    item.state = 'Finished';
    item.approval = approval;
    item.finisher = userId;
    item.finishedTime = this.ctx.now;
    item.actionEvent = event;
    this.token(item.tokenId).retrievable = false;
  }

  /** A node that requires a hand signature refuses a Submit or Reject without one (added signers and consults too). */
  requireSignature(item: ItemRec, opinion?: Opinion) {
    const a = this.activity(item.activityCode);
    if ('handSign' in a && a.handSign === 'required' && !opinion?.signature) throw err('WorkflowSignatureRequired', { activityCode: a.code });
  }

  submit(actor: Actor, itemId: string, opinion?: Opinion) {
    const item = this.openItemOf(itemId, actor.userId);
    const token = this.token(item.tokenId);
    if (item.itemType === 'circulate') return this.read(actor, [item.id]);
    if (item.itemType === 'childInstance') throw err('WorkflowActionNotPermitted', { action: 'submit', activityCode: item.activityCode });
    this.requireSignature(item, opinion);
    if (this.instance.state === 'Starting' && this.activity(item.activityCode).type !== 'Start') throw err('WorkflowStateInvalid', { state: this.instance.state });
    this.finishItem(item, actor.userId, item.kind === 'consult' ? -1 : 1);
    this.log({ userId: actor.userId, action: item.kind === 'consult' ? 'consultReply' : 'submit', tokenId: token.id, workItemId: item.id, activityCode: item.activityCode, approval: item.approval }, opinion);
    if (item.kind === 'consult') return;
    if (item.kind === 'before') {
      const source = this.s.items.find((i) => i.id === item.sourceItemId);
      if (source && !this.s.items.some((i) => i.sourceItemId === source.id && i.kind === 'before' && isOpen(i))) source.state = 'Working';
      return;
    }
    if (item.kind === 'normal') token.agreeCount++;
    if (this.instance.state === 'Starting') {
      this.instance.state = 'Running';
      this.effects.push({ type: 'recordStatus', status: BizObjectStatus.Running });
    }
    this.evaluate(token);
  }

  reject(actor: Actor, itemId: string, opinion?: Opinion) {
    const item = this.openItemOf(itemId, actor.userId);
    if (item.itemType !== 'approve' || item.kind === 'consult') throw err('WorkflowActionNotPermitted', { action: 'reject', activityCode: item.activityCode });
    this.requireSignature(item, opinion);
    const token = this.token(item.tokenId);
    this.finishItem(item, actor.userId, 0);
    this.log({ userId: actor.userId, action: 'reject', tokenId: token.id, workItemId: item.id, activityCode: item.activityCode, approval: 0 }, opinion);
    const siblings = (kind: ItemKind) => this.s.items.filter((i) => i.sourceItemId === item.sourceItemId && i.kind === kind && isOpen(i));
    if (item.kind === 'before') {
      // An added signer (before) disagrees: the group ends and the original signer decides, seeing the disagree.
      for (const i of siblings('before')) (i.state = 'Canceled'), (i.finishedTime = this.ctx.now);
      const source = this.s.items.find((i) => i.id === item.sourceItemId);
      if (source && isOpen(source)) source.state = 'Working';
      return;
    }
    if (item.kind === 'after') {
      // An added signer (after) disagrees: the original's agree turns into a disagree of the node.
      for (const i of siblings('after')) (i.state = 'Canceled'), (i.finishedTime = this.ctx.now);
      token.agreeCount--;
    }
    token.disagreeCount++;
    this.evaluate(token);
  }

  forback(actor: Actor, itemId: string, code: string, opinion?: Opinion) {
    const item = this.openItemOf(itemId, actor.userId);
    this.require(item, 'sendBack');
    const token = this.token(item.tokenId);
    if (!sendBackTargets(this.s, this.ctx.template, item).includes(code)) throw err('WorkflowActivityInvalid', { activityCode: code, reason: 'notEarlier' });
    this.finishItem(item, actor.userId, 0, 'backward');
    this.log({ userId: actor.userId, action: 'forback', tokenId: token.id, workItemId: item.id, activityCode: item.activityCode, approval: 0, receivers: [code] }, opinion);
    this.closeToken(token, 'Back', 0);
    this.cancelOpenItems(token);
    this.goBack(code, token, 'backward');
  }

  forward(actor: Actor, itemId: string, to: string, opinion?: Opinion) {
    const item = this.openItemOf(itemId, actor.userId);
    this.require(item, 'forward');
    if (to === actor.userId) throw err('WorkflowParticipantInvalid', { userId: to, reason: 'self' });
    const token = this.token(item.tokenId);
    item.state = 'Forwarded';
    item.finisher = actor.userId;
    item.finishedTime = this.ctx.now;
    token.retrievable = false;
    token.itemCount--;
    this.newItem(token, to, { itemType: item.itemType, delegant: actor.userId, sort: item.sort, actionEvent: 'forward' });
    token.participants = token.participants.map((p) => (p === actor.userId ? to : p));
    this.log({ userId: actor.userId, action: 'forward', tokenId: token.id, workItemId: item.id, activityCode: item.activityCode, receivers: [to] }, opinion);
    this.effects.push({ type: 'remind', userIds: [to], content: `转交：${this.instance.name}` });
  }

  addsign(actor: Actor, itemId: string, position: 'before' | 'after', userIds: string[], opinion?: Opinion) {
    const item = this.openItemOf(itemId, actor.userId);
    this.require(item, 'addSigner');
    if (item.itemType !== 'approve') throw err('WorkflowActionNotPermitted', { action: 'addSigner', activityCode: item.activityCode });
    const people = [...new Set(userIds)];
    if (!people.length || people.includes(actor.userId)) throw err('WorkflowParticipantInvalid', { userIds, reason: 'self' });
    const token = this.token(item.tokenId);
    token.retrievable = false;
    if (position === 'before') item.state = 'Waiting';
    else {
      this.finishItem(item, actor.userId, 1);
      token.agreeCount++;
    }
    for (const p of people) this.newItem(token, p, { itemType: 'approve', kind: position, sourceItemId: item.id, actionEvent: 'tempAddition' });
    this.log({ userId: actor.userId, action: position === 'before' ? 'addsignBefore' : 'addsignAfter', tokenId: token.id, workItemId: item.id, activityCode: item.activityCode, approval: position === 'after' ? 1 : -1, receivers: people }, opinion);
    this.effects.push({ type: 'remind', userIds: people, content: `加签：${this.instance.name}` });
  }

  consult(actor: Actor, itemId: string, userIds: string[], opinion?: Opinion) {
    const item = this.openItemOf(itemId, actor.userId);
    this.require(item, 'consult');
    const people = [...new Set(userIds)];
    if (!people.length || people.includes(actor.userId)) throw err('WorkflowParticipantInvalid', { userIds, reason: 'self' });
    const token = this.token(item.tokenId);
    for (const p of people) this.newItem(token, p, { itemType: item.itemType, kind: 'consult', sourceItemId: item.id, actionEvent: 'forComment' });
    this.log({ userId: actor.userId, action: 'consult', tokenId: token.id, workItemId: item.id, activityCode: item.activityCode, receivers: people }, opinion);
    this.effects.push({ type: 'remind', userIds: people, content: `征询意见：${this.instance.name}` });
  }

  /**
   * A child flow ended. Agreed: the ChildInstance node passes. Vetoed or cancelled: the node goes back to the handled
   * node before it (the flow is vetoed when there is none). A parent that moved on meanwhile ignores it.
   */
  childDone(tokenId: string, approval: 0 | 1) {
    const token = this.s.tokens.find((t) => t.id === tokenId);
    if (!token || token.state !== 'Running' || this.instance.state !== 'Running') return;
    const item = this.s.items.find((i) => i.tokenId === token.id && i.itemType === 'childInstance' && isOpen(i));
    if (item) this.finishItem(item, item.participant, approval, 'automatic');
    this.log({ userId: this.instance.originator, action: approval === 1 ? 'childAgreed' : 'childRefused', tokenId: token.id, activityCode: token.activityCode, approval });
    if (approval === 1) {
      token.agreeCount++;
      return this.pass(token);
    }
    token.disagreeCount++;
    this.closeToken(token, 'Back', 0);
    const previous = this.s.tokens
      .filter((t) => t.state === 'Finished' && t.seq < token.seq && !t.skipped && isHandled(this.activity(t.activityCode).type))
      .sort((x, y) => x.seq - y.seq)
      .at(-1);
    if (!previous) return this.finishInstance(0);
    this.goBack(previous.activityCode, token, 'sendBack');
  }

  // ---- actions on the instance -----------------------------------------------------------------------------

  assertRunning() {
    if (this.instance.state !== 'Running') throw err('WorkflowStateInvalid', { state: this.instance.state });
  }

  /** An open item of the actor on an activity permitting `action`, if any. */
  permittedItem(actor: Actor, action: PermittedAction): ItemRec | undefined {
    return this.s.items.find((i) => i.participant === actor.userId && isOpen(i) && i.kind === 'normal' && this.permits(i.activityCode, action));
  }

  /** Tokens after `token` that nobody acted on yet, through the nodes that pass by themselves. */
  successors(token: TokenRec): TokenRec[] | null {
    const out: TokenRec[] = [];
    const pending = [token];
    while (pending.length) {
      const t = pending.pop()!;
      for (const next of this.s.tokens.filter((n) => n.preTokens.includes(t.id))) {
        const type = this.activity(next.activityCode).type;
        if (type === 'Circulate') continue;
        if (type === 'End' || next.state === 'Back' || next.state === 'Dropped' || next.state === 'Revoke') return null;
        if (AUTO.has(type) && next.state === 'Finished') {
          out.push(next);
          pending.push(next);
          continue;
        }
        if (next.state !== 'Running' || !next.retrievable) return null;
        out.push(next);
      }
    }
    return out;
  }

  retrieve(actor: Actor, opinion?: Opinion) {
    this.assertRunning();
    const mine = this.s.items
      .filter((i) => i.participant === actor.userId && i.kind === 'normal' && i.state === 'Finished' && i.approval === 1)
      .map((i) => this.token(i.tokenId))
      .filter((t) => t.state === 'Finished')
      .sort((x, y) => y.seq - x.seq)[0];
    if (!mine) throw err('WorkflowRetrieveRefused', { reason: 'nothingToRetrieve' });
    if (!this.permits(mine.activityCode, 'retrieve')) throw err('WorkflowActionNotPermitted', { action: 'retrieve', activityCode: mine.activityCode });
    const after = this.successors(mine);
    if (!after || !after.some((t) => t.state === 'Running')) throw err('WorkflowRetrieveRefused', { reason: 'nextActed' });
    for (const t of after) {
      t.state = 'Revoke';
      t.finishedTime = this.ctx.now;
      this.cancelOpenItems(t, 'Revoked');
    }
    this.log({ userId: actor.userId, action: 'retrieve', tokenId: mine.id, activityCode: mine.activityCode }, opinion);
    this.activate(mine.activityCode, [mine.id], null, [actor.userId]);
  }

  cancel(actor: Actor, opinion?: Opinion) {
    if (this.instance.state !== 'Running' && this.instance.state !== 'Starting') throw err('WorkflowStateInvalid', { state: this.instance.state });
    const start = this.ctx.template.activities.find((a) => a.type === 'Start');
    const originatorMay = actor.userId === this.instance.originator && !!start && this.permits(start.code, 'cancel');
    if (!actor.isAdmin && !originatorMay && !this.permittedItem(actor, 'cancel')) throw err('WorkflowActionNotPermitted', { action: 'cancel' });
    this.instance.state = 'Canceled';
    this.instance.finishedTime = this.ctx.now;
    for (const t of this.s.tokens) if (t.state === 'Running') this.closeToken(t, 'Dropped');
    for (const i of this.s.items) if (isOpen(i)) (i.state = 'Canceled'), (i.finishedTime = this.ctx.now);
    this.log({ userId: actor.userId, action: 'cancel' }, opinion);
    this.effects.push({ type: 'recordStatus', status: BizObjectStatus.Canceled });
  }

  finish(actor: Actor, opinion?: Opinion) {
    this.assertRunning();
    if (!actor.isAdmin && !this.permittedItem(actor, 'finish')) throw err('WorkflowActionNotPermitted', { action: 'finish' });
    this.log({ userId: actor.userId, action: 'finish', approval: 1 }, opinion);
    this.finishInstance(1);
  }

  circulate(actor: Actor, userIds: string[], itemId: string | undefined, opinion?: Opinion) {
    if (this.instance.state === 'Canceled') throw err('WorkflowStateInvalid', { state: this.instance.state });
    let token: TokenRec | undefined;
    if (itemId) {
      const item = this.openItemOf(itemId, actor.userId);
      this.require(item, 'circulate');
      token = this.token(item.tokenId);
    } else if (actor.isAdmin || actor.userId === this.instance.originator) {
      token = [...this.s.tokens].sort((x, y) => y.seq - x.seq)[0];
    }
    if (!token) throw err('WorkflowActionNotPermitted', { action: 'circulate' });
    const people = [...new Set(userIds)].filter((u) => !this.s.items.some((i) => i.tokenId === token.id && i.participant === u && isOpen(i)));
    for (const p of people) this.newItem(token, p, { itemType: 'circulate' });
    this.log({ userId: actor.userId, action: 'circulate', tokenId: token.id, activityCode: token.activityCode, receivers: people }, opinion);
    if (people.length) this.effects.push({ type: 'remind', userIds: people, content: `传阅：${this.instance.name}` });
  }

  read(actor: Actor, itemIds?: string[]) {
    const mine = this.s.items.filter((i) => i.participant === actor.userId && i.itemType === 'circulate' && isOpen(i) && (!itemIds || itemIds.includes(i.id)));
    if (itemIds && mine.length !== new Set(itemIds).size) throw err('WorkflowItemHandled', { workItemIds: itemIds });
    for (const i of mine) {
      i.state = 'Finished';
      i.finisher = actor.userId;
      i.finishedTime = this.ctx.now;
    }
    if (mine.length) this.log({ userId: actor.userId, action: 'read', receivers: mine.map((i) => i.id) });
  }

  urge(actor: Actor, content: string) {
    this.assertRunning();
    if (!actor.isAdmin && actor.userId !== this.instance.originator) throw err('WorkflowActionNotPermitted', { action: 'urge' });
    const open = this.s.items.filter((i) => isOpen(i) && (i.itemType === 'fill' || i.itemType === 'approve'));
    for (const i of open) i.urged = true;
    const people = [...new Set(open.map((i) => i.participant))];
    this.log({ userId: actor.userId, action: 'urge', text: content, receivers: people });
    if (people.length) this.effects.push({ type: 'remind', userIds: people, content });
  }

  reactivate(actor: Actor, code: string, userIds: string[], opinion?: Opinion) {
    if (this.instance.state !== 'Finished' && this.instance.state !== 'Canceled') throw err('WorkflowStateInvalid', { state: this.instance.state });
    if (!actor.isAdmin) throw err('WorkflowActionNotPermitted', { action: 'reactivate' });
    const a = this.activity(code);
    if (!isHandled(a.type)) throw err('WorkflowActivityInvalid', { activityCode: code, reason: 'notParticipative' });
    const wasEffective = this.instance.state === 'Finished' && this.instance.approval === 1;
    this.instance.state = 'Running';
    this.instance.approval = -1;
    this.instance.finishedTime = null;
    this.log({ userId: actor.userId, action: 'reactivate', activityCode: code, receivers: userIds }, opinion);
    this.effects.push({ type: 'recordStatus', status: BizObjectStatus.Running });
    if (wasEffective) this.effects.push({ type: 'businessRules', on: 'void' });
    const last = [...this.s.tokens].sort((x, y) => y.seq - x.seq)[0];
    this.activate(code, last ? [last.id] : [], 'adjust', userIds);
  }
}

/** Starts an instance: Starting, with a Start token and a fill item for the originator (workflow.md "start"). */
export function startInstance(
  instance: Omit<InstanceRec, 'state' | 'approval' | 'nextSeq' | 'createdTime' | 'modifiedTime' | 'finishedTime' | 'parentInstanceId' | 'parentTokenId'> & Partial<Pick<InstanceRec, 'parentInstanceId' | 'parentTokenId'>>,
  ctx: CoreContext,
  opinion?: Opinion,
): Outcome {
  const state: EngineState = {
    instance: { parentInstanceId: null, parentTokenId: null, ...instance, state: 'Starting', approval: -1, nextSeq: 1, createdTime: ctx.now, modifiedTime: ctx.now, finishedTime: null },
    tokens: [],
    items: [],
    comments: [],
  };
  const m = new Machine(state, ctx);
  const start = ctx.template.activities.find((a) => a.type === 'Start');
  if (!start) throw err('WorkflowTemplateInvalid', { issues: [{ rule: 'oneStart' }] });
  m.activate(start.code, [], null);
  m.log({ userId: instance.originator, action: 'start', activityCode: start.code }, opinion);
  return { state, effects: m.effects };
}

/** Applies one action to a loaded state (a copy is changed; the input stays as it was). */
export function applyAction(input: EngineState, ctx: CoreContext, actor: Actor, action: Action): Outcome {
  const state: EngineState = structuredClone({ ...input, comments: [] });
  const m = new Machine(state, ctx);
  switch (action.type) {
    case 'submit':
      m.submit(actor, action.itemId, action.opinion);
      break;
    case 'reject':
      m.reject(actor, action.itemId, action.opinion);
      break;
    case 'forback':
      m.forback(actor, action.itemId, action.activityCode, action.opinion);
      break;
    case 'forward':
      m.forward(actor, action.itemId, action.to, action.opinion);
      break;
    case 'addsign':
      m.addsign(actor, action.itemId, action.position, action.userIds, action.opinion);
      break;
    case 'consult':
      m.consult(actor, action.itemId, action.userIds, action.opinion);
      break;
    case 'retrieve':
      m.retrieve(actor, action.opinion);
      break;
    case 'cancel':
      m.cancel(actor, action.opinion);
      break;
    case 'finish':
      m.finish(actor, action.opinion);
      break;
    case 'circulate':
      m.circulate(actor, action.userIds, action.itemId, action.opinion);
      break;
    case 'read':
      m.read(actor, action.itemIds);
      break;
    case 'urge':
      m.urge(actor, action.content);
      break;
    case 'reactivate':
      m.reactivate(actor, action.activityCode, action.userIds, action.opinion);
      break;
    case 'childDone':
      m.childDone(action.tokenId, action.approval);
      break;
  }
  m.touch();
  return { state, effects: m.effects };
}

/** What the user may do on an open item now (the buttons a workflow form would show). */
export function actionsOnItem(template: WorkflowTemplate, item: ItemRec, state: EngineState): string[] {
  if (!isOpen(item)) return [];
  if (item.itemType === 'circulate') return ['Read'];
  if (item.itemType === 'childInstance') return [];
  if (item.kind === 'consult') return ['Submit'];
  if (state.items.some((i) => i.sourceItemId === item.id && i.kind === 'before' && isOpen(i))) return [];
  const a = template.activities.find((x) => x.code === item.activityCode);
  const permitted: readonly string[] = a && 'permittedActions' in a ? a.permittedActions : [];
  const out = ['Submit'];
  if (item.itemType === 'approve') out.push('Reject');
  if (item.kind !== 'normal') return out;
  if (permitted.includes('sendBack')) out.push('ForBack');
  if (permitted.includes('forward')) out.push('Forward');
  if (permitted.includes('addSigner') && item.itemType === 'approve') out.push('TempAddition');
  if (permitted.includes('consult')) out.push('ForComment');
  if (permitted.includes('finish')) out.push('FinishInstance');
  if (permitted.includes('cancel')) out.push('CancelInstance');
  if (permitted.includes('circulate')) out.push('Circulate');
  return out;
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

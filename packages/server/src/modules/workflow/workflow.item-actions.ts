import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { ActionEvent } from '@tritium/shared/constants/workflow';
import { isHandled, type PermittedAction } from '@tritium/shared/workflow/index';
import { isOpen, type Actor, type Approval, type ItemKind, type ItemRec, type Opinion } from './workflow.core-types.ts';
import { err, sendBackTargets, Transitions } from './workflow.transitions.ts';

// Actions on one work item (shared/design/workflow.md "Actions"; docs/decisions/0014): submit, reject, send back,
// forward, add signers, consult, and a child flow's end.

export class ItemActions extends Transitions {

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
  requireSignature(item: ItemRec, opinion?: Opinion, actor?: Actor) {
    if (actor?.bySystem) return;
    const a = this.activity(item.activityCode);
    if ('handSign' in a && a.handSign === 'required' && !opinion?.signature) throw err('WorkflowSignatureRequired', { activityCode: a.code });
  }

  submit(actor: Actor, itemId: string, opinion?: Opinion) {
    const item = this.openItemOf(itemId, actor.userId);
    const token = this.token(item.tokenId);
    if (item.itemType === 'circulate') return this.read(actor, [item.id]);
    if (item.itemType === 'childInstance') throw err('WorkflowActionNotPermitted', { action: 'submit', activityCode: item.activityCode });
    this.requireSignature(item, opinion, actor);
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
    this.requireSignature(item, opinion, actor);
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
    if (!actor.bySystem) this.require(item, 'forward');
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

  /** Marks the actor's to-read (circulated) items read. */
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
}

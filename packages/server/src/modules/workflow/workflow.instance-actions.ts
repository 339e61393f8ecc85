import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { isHandled, type PermittedAction } from '@tritium/shared/workflow/index';
import { isOpen, type Actor, type ItemRec, type Opinion, type TokenRec } from './workflow.core-types.ts';
import { err } from './workflow.transitions.ts';
import { ItemActions } from './workflow.item-actions.ts';

// Actions on the whole instance (shared/design/workflow.md "Actions"; docs/decisions/0014): retrieve, cancel,
// finish, circulate, read, urge, reactivate. Machine is the whole transition machine workflow.core.ts drives.

const AUTO = new Set(['Condition', 'Parallel', 'Join', 'Circulate', 'ChildInstance']);

export class Machine extends ItemActions {

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

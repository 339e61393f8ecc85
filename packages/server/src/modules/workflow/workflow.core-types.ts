import type { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { WorkflowTemplate } from '@tritium/shared/workflow/index';
import type { WorkItemState } from '@tritium/shared/constants/workflow';
import type { ActionEvent, TokenState, WorkItemType } from '@tritium/shared/constants/workflow';

// The workflow engine's state, actions and effects (shared/design/workflow.md "Transitions"; docs/decisions/0014):
// what workflow.core.ts takes and answers. Its own file so that the transition machine's parts can share it.

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
  /** The deadline from the node's time limit (docs/decisions/0042); null when the node has none. */
  dueTime: Date | null;
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
  /**
   * The engine acts for the item's holder when its time limit passes (docs/decisions/0042): a transfer needs no
   * permitted action and a required hand signature is not asked for.
   */
  bySystem?: boolean;
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

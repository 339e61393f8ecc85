/** Workflow states, item types and form actions (domain.md §2, §4; calls.md §7). */

// domain.md §4
export const WORKFLOW_INSTANCE_STATES = [
  'Initiated',
  'Starting',
  'Running',
  'Finishing',
  'Finished',
  'Canceled',
  'Unfinished',
  'NotCanceled',
  'Unspecified',
] as const;
export type WorkflowInstanceState = (typeof WORKFLOW_INSTANCE_STATES)[number];

// domain.md §4
export const WORK_ITEM_STATES = [
  'Waiting',
  'Working',
  'Finished',
  'Canceled',
  'Unfinished',
  'NotCanceled',
  'Forwarded',
  'Revoked',
  'FinishedAndForwarded',
  'Revise',
  'ForBack',
  'ChangedCanceled',
  'NotEffective',
] as const;
export type WorkItemState = (typeof WORK_ITEM_STATES)[number];

// domain.md §4
export const TOKEN_STATES = ['Running', 'Finished', 'Dropped', 'Revoke', 'Back', 'Approved'] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

// domain.md §4: fill, approve, circulate and child instance.
export const WORK_ITEM_TYPES = ['fill', 'approve', 'circulate', 'childInstance'] as const;
export type WorkItemType = (typeof WORK_ITEM_TYPES)[number];

// domain.md §4: pending -1, disagree 0, agree 1.
export const ApprovalStatus = { Pending: -1, Disagree: 0, Agree: 1 } as const;
export type ApprovalStatus = (typeof ApprovalStatus)[keyof typeof ApprovalStatus];

// calls.md §7 (Workflow): rapid approval sends this status unless told otherwise; it travels as a string.
export const DEFAULT_RAPID_APPROVAL_STATUS = '0';

// domain.md §4: events recorded on a workflow activity.
export const ACTION_EVENTS = [
  'forward',
  'backward',
  'adjust',
  'cancel',
  'automatic',
  'revise',
  'forComment',
  'tempAddition',
  'sendBack',
] as const;
export type ActionEvent = (typeof ACTION_EVENTS)[number];

// domain.md §4: who takes a work item back.
export const RETRIEVE_TYPES = ['originator', 'other'] as const;
export type RetrieveType = (typeof RETRIEVE_TYPES)[number];

// domain.md §4: the buttons a form can offer at runtime.
export const FORM_ACTIONS = [
  'Save',
  'Submit',
  'SubmitAndAdd',
  'Reject',
  'Forward',
  'CancelInstance',
  'RetrieveInstance',
  'ForBack',
  'Remove',
  'Revise',
  'Read',
  'Close',
  'FinishInstance',
  'ForComment',
  'TempAddition',
  'Copy',
  'Print',
  'ExternalShare',
] as const;
export type FormAction = (typeof FORM_ACTIONS)[number];

// domain.md §2: tabs of the flow center.
export const FLOW_CENTER_TABS = ['todo', 'toRead', 'apply', 'done', 'all'] as const;
export type FlowCenterTab = (typeof FLOW_CENTER_TABS)[number];

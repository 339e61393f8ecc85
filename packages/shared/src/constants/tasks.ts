/** States of background jobs: async tasks, smart actions, import/export, print and e-sign (domain.md §4). */

// domain.md §4
export const BACKGROUND_TASK_STATES = [
  'Finished',
  'Failed',
  'Running',
  'Waiting',
  'Canceled',
  'Timeout',
  'Queuing',
  'Suspend',
] as const;
export type BackgroundTaskState = (typeof BACKGROUND_TASK_STATES)[number];

// domain.md §4, calls.md §4: only a waiting task may be cancelled and only a timed-out one retried.
export const CANCELLABLE_TASK_STATES = ['Waiting'] as const satisfies readonly BackgroundTaskState[];
export const RETRYABLE_TASK_STATES = ['Timeout'] as const satisfies readonly BackgroundTaskState[];

// domain.md §4: a smart-action run as a whole.
export const ACTION_TASK_STATES = ['Waiting', 'Running', 'Completed', 'Aborted'] as const;
export type ActionTaskState = (typeof ACTION_TASK_STATES)[number];

// domain.md §4: one object inside a smart-action run.
export const ACTION_OBJECT_STATES = ['Unexecuted', 'Success', 'Failed'] as const;
export type ActionObjectState = (typeof ACTION_OBJECT_STATES)[number];

// domain.md §4: "Exporting/Running" is one state under two names; Exporting is the one we store.
export const EXPORT_STATES = ['Waiting', 'Exporting', 'Success', 'Fail', 'Cancel'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];
/** Older names that mean the same export state. */
export const EXPORT_STATE_ALIASES: Readonly<Record<string, ExportState>> = { Running: 'Exporting' };

// domain.md §4: state of a row staged by an import.
export const IMPORT_DATA_STATES = ['Draft', 'Effective', 'Processing'] as const;
export type ImportDataState = (typeof IMPORT_DATA_STATES)[number];

// domain.md §4: how imported rows meet existing ones.
export const IMPORT_TYPES = ['Upsert', 'InsertOnly', 'UpdateOnly'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

// domain.md §4: print job stages, in the order a job normally walks through them (Error aside).
export const PRINT_STATES = [
  'Error',
  'Wait',
  'Print',
  'LoadData',
  'AssembleData',
  'CalcPage',
  'GenerateFile',
  'Complete',
] as const;
export type PrintState = (typeof PRINT_STATES)[number];

// domain.md §4
export const ESIGN_FLOW_STATES = [
  'PreCommit',
  'Draft',
  'Running',
  'Finish',
  'Revoke',
  'Abort',
  'Expired',
  'Delete',
  'Refuse',
] as const;
export type ESignFlowState = (typeof ESIGN_FLOW_STATES)[number];

// domain.md §4
export const SIGNER_STATES = ['Waiting', 'Signing', 'Complete', 'WaitForApproval', 'Refuse'] as const;
export type SignerState = (typeof SIGNER_STATES)[number];

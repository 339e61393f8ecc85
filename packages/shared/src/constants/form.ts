/** Form-level constants: scenes, runtime modes, containers and system fields (domain.md §2, §3). */

// domain.md §2: the contexts a form can be rendered in.
export const FORM_SCENES = [
  'Common',
  'SingletonModule',
  'ListDataTitle',
  'GanttCreateNode',
  'ExternalForm',
  'ExternalShare',
  'OpenQuery',
  'CustomCode',
  'GlobalApi',
] as const;
export type FormScene = (typeof FORM_SCENES)[number];

// domain.md §2: runtime modes of a form.
export const FORM_MODES = ['Edit', 'View', 'Create', 'Readonly', 'Print'] as const;
export type FormMode = (typeof FORM_MODES)[number];

// domain.md §2: where a form opens.
export const FORM_CONTAINER_MODES = ['Specified', 'Modal', 'Drawer'] as const;
export type FormContainerMode = (typeof FORM_CONTAINER_MODES)[number];

// domain.md §2: the default form modal size, in pixels.
export const FORM_MODAL_DEFAULT_SIZE = { width: 820, height: 500 } as const;

// domain.md §3: fields every schema carries, whatever the designer adds.
export const SYSTEM_FIELDS = [
  'Status',
  'CreatedBy',
  'ModifiedBy',
  'CreatedTime',
  'ModifiedTime',
  'OwnerId',
  'OwnerDeptId',
  'Name',
  'ObjectId',
  'ParentObjectId',
  'SeqNo',
  'WorkflowInstanceId',
] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];

// The columns every sub-table row has besides its controls (docs/decisions/0006): its id, the main record's id and
// its position. A sub-table control may not use these codes (case-insensitively).
export const SUB_TABLE_ROW_FIELDS = ['ObjectId', 'ParentObjectId', 'SortKey'] as const;

// calls.md §3: system fields shown by default in a new schema.
export const DEFAULT_SCHEMA_FIELDS = [
  'Status',
  'ModifiedBy',
  'SeqNo',
  'CreatedBy',
  'OwnerId',
  'OwnerDeptId',
  'CreatedTime',
  'ModifiedTime',
] as const satisfies readonly SystemField[];

// calls.md §3: the Status field reads as a workflow status on workflow forms and a data status elsewhere.
export const STATUS_FIELD_DISPLAY_NAMES = { workflow: '流程状态', data: '数据状态' } as const;

// domain.md §3: the control attribute keys a designer reads and writes.
export const CONTROL_ATTRIBUTES = [
  'DataField',
  'DisplayName',
  'DefaultValue',
  'DataLink',
  'NoRepeat',
  'NoRepeatTipMessage',
  'Rows',
  'DateTimeMode',
  'DecimalPlaces',
  'RangeRule',
  'DefaultItems',
  'ItemColors',
  'MaxUploadSize',
  'AreaMode',
  'GridViewFields',
  'SeqNoStructure',
] as const;
export type ControlAttribute = (typeof CONTROL_ATTRIBUTES)[number];

// domain.md §3 and calls.md §3: number controls default to 0 decimals, or 2 when shown as a percentage or bar.
export const DEFAULT_DECIMAL_PLACES = 0;
export const PERCENT_DECIMAL_PLACES = 2;

// domain.md §5: what a submit rule can do when its condition holds.
export const SUBMIT_RULE_EFFECTS = ['showError', 'hideButton'] as const;
export type SubmitRuleEffect = (typeof SUBMIT_RULE_EFFECTS)[number];

// domain.md §5: the things that can depend on a control, listed in the warning shown before removing it.
export const CONTROL_DEPENDENCY_KINDS = [
  'submitRule',
  'businessRule',
  'automation',
  'customButton',
  'index',
  'associationFilter',
  'dataLinkage',
  'hideCondition',
  'formula',
  'rollup',
  'other',
] as const;
export type ControlDependencyKind = (typeof CONTROL_DEPENDENCY_KINDS)[number];

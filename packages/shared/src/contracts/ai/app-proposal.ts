import { z } from 'zod';

// An app from a description (issue 45; docs/decisions/0126): the chat model proposes forms with fields of the control
// registry's types, a list view per form, a workflow (start → approval → end) and a dashboard; the person edits the
// proposal and creates it through the designers' own save and publish. A field is the designer's own control
// definition ({ type, code, options }): its type and options are checked by the registry's schemas on the server,
// so `type` and `options` are loose here and an unknown type or setting is refused there with its path (480201).

export const APP_PROPOSAL_BOUNDS = {
  descriptionChars: 2000,
  forms: 5,
  fields: 30,
  charts: 4,
} as const;

const Name = z.string().trim().min(1, '请填写名称').max(50, '名称最多 50 个字');
/** A control code as the designer takes it (letters first); checked again by the registry's own code schema. */
const FieldCode = z.string().trim().min(1).max(64);

export const ProposedField = z.strictObject({
  /** A control type key of the registry (textBox, number, dateTime, dropDown, photo…). */
  type: z.string().trim().min(1).max(40),
  code: FieldCode,
  /** The control's settings as its options schema takes them: displayName, required, defaultItems… */
  options: z.record(z.string(), z.unknown()).default({}),
});
export type ProposedField = z.infer<typeof ProposedField>;

/** Who approves: the originator's department manager, or the members of a role of the organisation (by its name). */
export const ProposedApprover = z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('manager') }), z.strictObject({ kind: z.literal('role'), roleName: Name })]);
export type ProposedApprover = z.infer<typeof ProposedApprover>;

export const ProposedWorkflow = z.strictObject({ approvalName: Name, approver: ProposedApprover });

export const ProposedForm = z.strictObject({
  name: Name,
  fields: z.array(ProposedField).min(1, '每个表单至少要有一个字段').max(APP_PROPOSAL_BOUNDS.fields),
  /** Field codes the list view shows, in order (system fields such as CreatedTime allowed). */
  listColumns: z.array(FieldCode).max(APP_PROPOSAL_BOUNDS.fields + 5).default([]),
  /** An approval flow: the form becomes a workflow form. */
  workflow: ProposedWorkflow.nullable().default(null),
});
export type ProposedForm = z.infer<typeof ProposedForm>;

export const PROPOSED_CHART_TYPES = ['bar', 'pie', 'line', 'number'] as const;

export const ProposedChart = z.strictObject({
  title: Name,
  /** The form's index in `forms`. */
  form: z.number().int().min(0).max(APP_PROPOSAL_BOUNDS.forms - 1),
  type: z.enum(PROPOSED_CHART_TYPES),
  /** The field the records are grouped by (a chart); null for a number card. */
  groupBy: FieldCode.nullable().default(null),
  /** Absent: records are counted; a number field: summed. */
  sumField: FieldCode.nullable().default(null),
});
export type ProposedChart = z.infer<typeof ProposedChart>;

export const AppProposal = z.strictObject({
  appName: Name,
  forms: z.array(ProposedForm).min(1, '至少要有一个表单').max(APP_PROPOSAL_BOUNDS.forms),
  dashboard: z.strictObject({ name: Name, charts: z.array(ProposedChart).max(APP_PROPOSAL_BOUNDS.charts) }).nullable().default(null),
});
export type AppProposal = z.infer<typeof AppProposal>;
export type AppProposalInput = z.input<typeof AppProposal>;

/** POST /v1/ai-service/app/proposal: a description in the person's words. */
export const AppProposalBody = z.strictObject({
  description: z.string().trim().min(1, '请描述要搭建的应用').max(APP_PROPOSAL_BOUNDS.descriptionChars, `描述最多 ${APP_PROPOSAL_BOUNDS.descriptionChars} 个字`),
});
export type AppProposalBody = z.infer<typeof AppProposalBody>;

export const AppProposalResult = z.object({
  proposal: AppProposal,
  /** The control types a field may take, with their names (the editor's choices). */
  controlTypes: z.array(z.object({ key: z.string(), name: z.string() })),
  /** The organisation's roles an approval may name. */
  roles: z.array(z.string()),
});
export type AppProposalResult = z.infer<typeof AppProposalResult>;

/** POST /v1/ai-service/app/create: the (edited) proposal, created through the designers' save and publish. */
export const AppCreateBody = z.strictObject({ proposal: AppProposal });
export type AppCreateBody = z.infer<typeof AppCreateBody>;

export const AppCreateResult = z.object({
  appCode: z.string(),
  forms: z.array(z.object({ schemaCode: z.string(), name: z.string(), workflow: z.boolean() })),
  dashboardCode: z.string().nullable(),
});
export type AppCreateResult = z.infer<typeof AppCreateResult>;

/** The `draft` event of the assistant: a record filled for the person to check and save (never saved by the server). */
export const RecordDraft = z.object({
  schemaCode: z.string(),
  formName: z.string(),
  values: z.record(z.string(), z.unknown()),
  filled: z.array(z.string()),
  issues: z.array(z.object({ field: z.string(), message: z.string() })),
});
export type RecordDraft = z.infer<typeof RecordDraft>;

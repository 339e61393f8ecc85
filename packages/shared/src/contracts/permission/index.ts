import { z } from 'zod';
import { DATA_SCOPES } from '../../constants/org.ts';
import { FIELD_RIGHTS, FORM_ACTIONS } from '../../constants/permissions.ts';
import { SchemaCode } from '../form-design/definition.ts';
import { BizObjectId, BizRecord, LoadDataResult } from '../business-data/index.ts';

// Form permissions (issue 19; docs/decisions/0037). The spec names the concepts (domain.md §6: data scopes, node
// authorisation, sub-administrators) but not these calls; they are ours, under /v1/form/permission/.

const UnitIds = z.array(z.string().min(1).max(64)).max(500);

/** Who a group is for: any of these users, anyone in these departments (or below them), anyone holding these roles. */
export const PermissionMembers = z.strictObject({
  users: UnitIds.default([]),
  departments: UnitIds.default([]),
  roles: UnitIds.default([]),
});
export type PermissionMembers = z.infer<typeof PermissionMembers>;

/** A field's right by code (`Grid.Column` for a sub-table column); a field not named is editable. */
export const FieldRights = z.record(z.string().min(1).max(130), z.enum(FIELD_RIGHTS));

/** A permission group as the editor saves it. */
export const PermissionGroupInput = z.strictObject({
  /** Absent for a new group. */
  id: z.string().uuid().optional(),
  name: z.string().trim().min(1).max(50),
  members: PermissionMembers,
  actions: z.array(z.enum(FORM_ACTIONS)).max(FORM_ACTIONS.length),
  /** Which records the group's members see. */
  viewScope: z.enum(DATA_SCOPES),
  /** Which of those they may edit and delete (with the edit and delete actions). */
  editScope: z.enum(DATA_SCOPES),
  fieldRights: FieldRights.default({}),
});
export type PermissionGroupInput = z.input<typeof PermissionGroupInput>;

export const PermissionGroup = PermissionGroupInput.required({ id: true }).extend({ sortKey: z.number().int() });
export type PermissionGroup = z.infer<typeof PermissionGroup>;

/** POST /v1/form/permission/group/list {schemaCode} → the form's groups in order (the form's app administered). */
export const PermissionGroupListBody = z.strictObject({ schemaCode: SchemaCode });
export const PermissionGroupListResult = z.object({
  schemaCode: z.string(),
  list: z.array(PermissionGroup),
  /** The names of the users, departments and roles the groups name, by id (for the editor). */
  names: z.record(z.string(), z.string()),
});
export type PermissionGroupListResult = z.infer<typeof PermissionGroupListResult>;

/** POST /v1/form/permission/group/save {schemaCode, group} → the group as stored. */
export const PermissionGroupSaveBody = z.strictObject({ schemaCode: SchemaCode, group: PermissionGroupInput });
export type PermissionGroupSaveBody = z.input<typeof PermissionGroupSaveBody>;
export const PermissionGroupSaveResult = PermissionGroup;

/** POST /v1/form/permission/group/remove {schemaCode, id}. */
export const PermissionGroupRemoveBody = z.strictObject({ schemaCode: SchemaCode, id: z.string().uuid() });
export const PermissionGroupRemoveResult = z.object({ removed: z.boolean() });

/**
 * POST /v1/form/permission/mine {schemaCode, userId?} → what the caller (or, for the form's app administrators
 * previewing, the user named) may do: the buttons a screen shows follow it; the server refuses the rest anyway.
 */
export const FormRightsBody = z.strictObject({ schemaCode: SchemaCode, userId: z.string().min(1).max(64).optional() });
export const FormRightsResult = z.object({
  schemaCode: z.string(),
  /**
   * How the rights were decided: an administrator, the form's groups, no group yet (everyone who opens the form), or
   * an external user on a form without groups (their own records only).
   */
  source: z.enum(['administrator', 'groups', 'open', 'external', 'participant']),
  actions: z.array(z.enum(FORM_ACTIONS)),
  viewScopes: z.array(z.enum(DATA_SCOPES)),
  editScopes: z.array(z.enum(DATA_SCOPES)),
  /** Fields that are not editable: hidden or read-only. */
  fieldRights: FieldRights,
});
export type FormRightsResult = z.infer<typeof FormRightsResult>;

/**
 * POST /v1/form/permission/preview {schemaCode, userId, objectId?} ("preview as", the form's app administrators):
 * the first page of the form's records and one record exactly as that user reads them — the same list and loaddata
 * answers, computed by the policy for that user (docs/decisions/0056). Without objectId the record is the list's
 * first. `opens` false: the user cannot open the form's node (nothing else is answered).
 */
export const FormPreviewBody = z.strictObject({
  schemaCode: SchemaCode,
  userId: z.string().min(1).max(64),
  objectId: BizObjectId.optional(),
  pageSize: z.number().int().min(1).max(50).default(10),
});
export type FormPreviewBody = z.input<typeof FormPreviewBody>;
export const FormPreviewResult = z.object({
  opens: z.boolean(),
  rights: FormRightsResult.nullable(),
  /** The data fields the user sees, in the form's order: display name, control type and options (for display texts). */
  columns: z.array(z.object({ code: z.string(), displayName: z.string(), type: z.string(), options: z.record(z.string(), z.unknown()) })),
  list: z.array(BizRecord),
  total: z.number().int(),
  record: LoadDataResult.nullable(),
});
export type FormPreviewResult = z.infer<typeof FormPreviewResult>;

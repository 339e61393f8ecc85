import { FORM_ACTIONS, FORM_ACTION_LABELS, type FieldRight, type FormAction } from '@tritium/shared/constants/permissions';
import { UserAuthType, type DataScope } from '@tritium/shared/constants/org';
import { AppError } from '../../lib/app-error.ts';
import { isAdministrator, type NodeViewer } from '../function-node/function-node.policy.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { groupsOfForm, type PermissionGroup } from './permission-groups.repo.ts';

// The policy (issue 19; docs/decisions/0037): what one person may do with one form's records. Every read and write
// of records asks it — the query engine for its WHERE, the runtime for a record, saves for actions and fields.
//
// - Engine administrators and the administrators of the form's app: everything ('administrator').
// - A form without permission groups: whoever opens its node may view every record and create; records are changed
//   and removed by their creator, owner or an app administrator ('open': the rule before permission groups). With
//   the form's data access control on (enableDataAcl), each person sees and changes their own records only.
// - Otherwise the union of the groups the person is in ('groups'): their actions, their view scopes, their edit
//   scopes; a field is hidden only when every such group hides it, read-only when none lets it be edited.
// - External users (auth type External, members of 外部组织) never get the open rule: on a form without groups they
//   view, create, change and print their own records only ('external', docs/decisions/0056). What else they see is
//   what a permission group naming them (or their external organisation) shares with them.
// - A participant of a flow on a form whose node they may not open ('participant'): no action but printing; they
//   read the records of their flows, as every participant does (record-policy readableIds).

export type RightsSource = 'administrator' | 'groups' | 'open' | 'external' | 'participant';

export interface FormRights {
  source: RightsSource;
  actions: ReadonlySet<FormAction>;
  /** Any of these scopes lets a record be seen ('all' among them: every record). */
  viewScopes: readonly DataScope[];
  /** Any of these scopes lets a record be edited or removed (with the action). */
  editScopes: readonly DataScope[];
  /** Fields that are not editable, by code (`Grid.Column` for a sub-table column). */
  fields: ReadonlyMap<string, Exclude<FieldRight, 'editable'>>;
}

const ALL_ACTIONS: ReadonlySet<FormAction> = new Set(FORM_ACTIONS);

/** Every right: administrators, and the system's own standing (business rules, rollups). */
export const FULL_RIGHTS: FormRights = { source: 'administrator', actions: ALL_ACTIONS, viewScopes: ['all'], editScopes: ['all'], fields: new Map() };
const OPEN_RIGHTS: FormRights = { source: 'open', actions: ALL_ACTIONS, viewScopes: ['all'], editScopes: ['all'], fields: new Map() };
/** A form with data access control on (enableDataAcl) and no permission groups: each person their own records (docs/decisions/0115). */
const OWN_RIGHTS: FormRights = { source: 'open', actions: ALL_ACTIONS, viewScopes: ['own'], editScopes: ['own'], fields: new Map() };
/** A participant of a flow on a form they were not given: no action; the records of their flows are read anyway. */
export const PARTICIPANT_RIGHTS: FormRights = { source: 'participant', actions: new Set(['print']), viewScopes: [], editScopes: [], fields: new Map() };
const EXTERNAL_RIGHTS: FormRights = { source: 'external', actions: new Set(['view', 'create', 'edit', 'delete', 'print']), viewScopes: ['own'], editScopes: ['own'], fields: new Map() };

/** An external user: their auth type says so (0010: an external membership has it, by 0003's rules). */
export const isExternalViewer = (viewer: NodeViewer): boolean => viewer.authType === UserAuthType.External;

const RIGHT_RANK: Record<FieldRight, number> = { hidden: 0, readonly: 1, editable: 2 };

/**
 * The groups that name the viewer: as a user, by one of their roles, or by a department they are in or below — the
 * viewer's units hold their roles and their departments with those above (function-node roleIdsOf, the context statement).
 */
function groupsOfViewer(viewer: NodeViewer, groups: PermissionGroup[]): PermissionGroup[] {
  const units = new Set(viewer.unitIds);
  return groups.filter((g) => g.members.users.includes(viewer.userId) || g.members.roles.some((r) => units.has(r)) || g.members.departments.some((d) => units.has(d)));
}

/** The union of the groups' grants. */
export function unionOf(groups: PermissionGroup[], fieldCodes: readonly string[]): FormRights {
  const actions = new Set<FormAction>(groups.flatMap((g) => g.actions));
  const viewScopes = [...new Set(groups.filter((g) => g.actions.includes('view')).map((g) => g.viewScope))];
  const editScopes = [...new Set(groups.filter((g) => g.actions.includes('edit') || g.actions.includes('delete')).map((g) => g.editScope))];
  const fields = new Map<string, Exclude<FieldRight, 'editable'>>();
  if (groups.length) {
    for (const code of fieldCodes) {
      let best: FieldRight = 'hidden';
      for (const g of groups) {
        const right = g.fieldRights[code] ?? 'editable';
        if (RIGHT_RANK[right] > RIGHT_RANK[best]) best = right;
      }
      if (best !== 'editable') fields.set(code, best);
    }
  }
  return { source: 'groups', actions, viewScopes, editScopes, fields };
}

/**
 * The viewer's rights on a form. `isAppAdmin`: the viewer administers the form's app. `fieldCodes`: every data
 * field of the form, sub-table columns as `Grid.Column` and the sub-tables themselves by code. `dataAcl`: the form's
 * enableDataAcl; on, a form without groups shows each person their own records only instead of every record.
 */
export async function rightsOf(edb: EngineExecutor, viewer: NodeViewer, schemaCode: string, isAppAdmin: boolean, fieldCodes: readonly string[], dataAcl = false): Promise<FormRights> {
  if (isAppAdmin || isAdministrator(viewer)) return FULL_RIGHTS;
  const groups = await groupsOfForm(edb, viewer.context, schemaCode);
  if (!groups.length) return isExternalViewer(viewer) ? EXTERNAL_RIGHTS : dataAcl ? OWN_RIGHTS : OPEN_RIGHTS;
  return unionOf(groupsOfViewer(viewer, groups), fieldCodes);
}

export const can = (rights: FormRights, action: FormAction): boolean => rights.actions.has(action);

/** Refuses an action the rights do not grant (330001, naming it in both languages). */
export function assertCan(rights: FormRights, action: FormAction): void {
  if (!can(rights, action)) throw new AppError('PermissionActionDenied', { detail: { action: FORM_ACTION_LABELS[action].zh, actionEn: FORM_ACTION_LABELS[action].en } });
}

/** Whether the scopes cover every record. */
export const coversAll = (scopes: readonly DataScope[]): boolean => scopes.includes('all');

export const isHidden = (rights: FormRights, code: string): boolean => rights.fields.get(code) === 'hidden';
export const isReadOnly = (rights: FormRights, code: string): boolean => rights.fields.has(code);

/** The rights as the API answers them. */
export function presentRights(schemaCode: string, rights: FormRights) {
  return {
    schemaCode,
    source: rights.source,
    actions: FORM_ACTIONS.filter((a) => rights.actions.has(a)),
    viewScopes: [...rights.viewScopes],
    editScopes: [...rights.editScopes],
    fieldRights: Object.fromEntries(rights.fields),
  };
}

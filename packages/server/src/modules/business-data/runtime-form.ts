import type { Kysely } from 'kysely';
import type { contracts } from '@tritium/shared';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { controlStorage, type AnyControlType, type ControlSqlType } from '@tritium/shared/controls/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor, NodeRow } from '../function-node/function-node.repo.ts';
import { canAdministerApp, type NodeViewer } from '../function-node/function-node.policy.ts';
import { viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { FORM_NODE_TYPES, openFormNodeOrThrow } from '../form-design/form-access.ts';
import { publishedFormOf } from '../form-design/published-forms.ts';
import { definitionOf } from '../form-design/form-design.service.ts';
import { walkControls } from '../form-design/form-model.ts';
import { gridKeyOf } from '../form-design/table-names.ts';
import { FULL_RIGHTS, PARTICIPANT_RIGHTS, rightsOf, type FormRights } from '../permission/form-rights.ts';

// The published form as the runtime reads it (docs/decisions/0007): its node, the caller's standing, its physical
// tables (form_tables, never derived again) and its data fields per table, each with its registry type.

/** A control that stores a value in a column of its table. */
export interface DataField {
  code: string;
  type: AnyControlType;
  options: Record<string, unknown>;
  sqlType: ControlSqlType;
}

export interface GridField {
  code: string;
  options: Record<string, unknown>;
  table: string;
  fields: DataField[];
}

export interface RuntimeForm {
  node: NodeRow;
  viewer: NodeViewer;
  /** The caller administers the form's app (edits and removes any record). */
  isAppAdmin: boolean;
  /** What the caller may do with the form's records: actions, scopes, field rights (docs/decisions/0037). */
  rights: FormRights;
  definition: contracts.FormDefinition;
  version: number;
  mainTable: string;
  /** Main-table columns with a lowered twin: "contains" reads the twin with LIKE (form-design/trigram-indexes.ts). */
  folded: ReadonlySet<string>;
  /** The main table's CreatedBy, ModifiedBy, OwnerId, OwnerDeptId and WorkflowInstanceId are uuid (decision 0128), not text. */
  uuidIds: boolean;
  fields: DataField[];
  grids: GridField[];
  /** The sequence-number control's options, when the form has one. */
  seqNo: { code: string; options: Record<string, unknown> } | null;
  isWorkflow: boolean;
  isSingleton: boolean;
}

/** The published form a caller may open; 404 otherwise (function nodes' rule), 240004 before the first publish. */
export async function getRuntimeFormOrThrow(edb: EngineExecutor, ctx: NodeContext, schemaCode: string): Promise<RuntimeForm> {
  return runtimeFormFor(edb, await viewerOf(edb, ctx), schemaCode);
}

/** getRuntimeFormOrThrow for a viewer already known (the files' record-level check). */
export async function runtimeFormFor(edb: EngineExecutor, viewer: NodeViewer, schemaCode: string): Promise<RuntimeForm> {
  const { node, appPermission, asParticipant } = await openFormNodeOrThrow(edb, viewer, schemaCode);
  // Let in by a flow of theirs only: the records of their flows are read (record-policy), nothing else is granted.
  if (asParticipant) return formOfNode(edb, node, viewer, false, PARTICIPANT_RIGHTS);
  return formOfNode(edb, node, viewer, canAdministerApp(viewer, appPermission));
}

/**
 * The published form of a node already found, for the viewer given. Business rules and rollup refreshes read other
 * forms with the system's standing, not the caller's (docs/decisions/0015).
 */
export async function formOfNode(edb: EngineExecutor, node: NodeRow, viewer: NodeViewer, isAppAdmin: boolean, given?: FormRights): Promise<RuntimeForm> {
  if (!FORM_NODE_TYPES.includes(node.node_type)) throw new AppError('FormNodeNotForm', { detail: { code: node.code, nodeType: node.node_type } });
  const published = await publishedFormOf(edb, viewer, node);
  const tables = published?.tables ?? new Map<string, string>();
  const mainTable = tables.get('');
  if (!published || !mainTable) throw new AppError('FormNotPublished', { detail: { schemaCode: node.code } });
  const definition = definitionOf(published.definition);
  const fields: DataField[] = [];
  const grids: GridField[] = [];
  const gridByCode = new Map<string, GridField>();
  let seqNo: RuntimeForm['seqNo'] = null;
  walkControls(definition.controls, ({ control, type, gridCode }) => {
    const options = control.options as Record<string, unknown>;
    if (type.key === 'seqNo' && !gridCode) seqNo = { code: control.code, options };
    const { column } = controlStorage(type, options);
    if (!column) return;
    if ('childTable' in column) {
      const table = tables.get(gridKeyOf(control.code));
      if (!table) return;
      const grid = { code: control.code, options, table, fields: [] };
      gridByCode.set(control.code, grid);
      grids.push(grid);
      return;
    }
    if (column.systemField) return;
    const field = { code: control.code, type, options, sqlType: column.sqlType };
    if (gridCode) gridByCode.get(gridCode)?.fields.push(field);
    else fields.push(field);
  });
  const fieldCodes = [...fields.map((f) => f.code), ...grids.flatMap((g) => [g.code, ...g.fields.map((f) => `${g.code}.${f.code}`)])];
  const rights = given ?? (isAppAdmin ? FULL_RIGHTS : await rightsOf(edb, viewer, node.code, false, fieldCodes, definition.attributes.enableDataAcl));
  return {
    node,
    viewer,
    isAppAdmin,
    rights,
    definition,
    version: published.version,
    mainTable,
    folded: new Set(published.folded),
    uuidIds: published.uuidIds,
    fields,
    grids,
    seqNo,
    isWorkflow: node.node_type === FunctionNodeType.WorkflowModule,
    isSingleton: node.node_type === FunctionNodeType.SingletonModule,
  };
}

/** The engine schema's dynamic tables are reached with the same builder, untyped (their columns are the form's). */
export const anyDb = (edb: EngineExecutor): Kysely<any> => edb as unknown as Kysely<any>;

const indexes = new WeakMap<readonly { code: string }[], ReadonlyMap<string, unknown>>();
/**
 * A form's fields or grids by code, made once per list (a published form's lists are shared by its requests) rather
 * than once per record of a batch.
 */
export function byCode<T extends { code: string }>(list: readonly T[]): ReadonlyMap<string, T> {
  let index = indexes.get(list);
  if (!index) indexes.set(list, (index = new Map(list.map((item) => [item.code, item]))));
  return index as ReadonlyMap<string, T>;
}

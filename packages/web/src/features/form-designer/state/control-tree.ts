/**
 * The designer's control tree: controls with a designer-only `uid`, the containers they sit in (the form's
 * root, a sub-table or layout, a tab pane) and the pure helpers the reducer is built from.
 */
import { SYSTEM_FIELDS } from '@tritium/shared/constants/form';
import {
  controlCodeSchema,
  controlTypeByKey,
  snapshotOf,
  verifyControlAdd,
  type AnyControlType,
  type ControlContainerKind,
  type ControlTypeKey,
} from '@tritium/shared/controls/index';
import type { ControlAddVerifyResult } from '@tritium/shared/constants/formats';

export interface DesignerPane {
  uid: string;
  title: string;
  controls: DesignerControl[];
}

/** One control as the designer holds it: the saved shape plus a uid (codes repeat across sub-tables). */
export interface DesignerControl {
  uid: string;
  type: ControlTypeKey;
  code: string;
  /** What the designer edits: may be invalid while being typed; checked by the type's options schema. */
  options: Record<string, unknown>;
  controls?: DesignerControl[];
  panes?: DesignerPane[];
}

/** The id of the form's own list of controls; other containers are named by their control's or pane's uid. */
export const ROOT = 'root';

/** A control may not be moved into itself (or into anything it holds). */
export type DropCheck = ControlAddVerifyResult | 'cycle';

export interface ContainerInfo {
  id: string;
  controls: DesignerControl[];
  /** Container kinds from the root to this one, as verifyControlAdd reads them. */
  chain: ControlContainerKind[];
  /** The sub-table, layout or tab holding the list; undefined for the root. */
  owner?: DesignerControl;
  /** The sub-table whose columns share a code scope; undefined in the main table's scope. */
  subTable?: DesignerControl;
}

export interface ControlLocation {
  control: DesignerControl;
  container: ContainerInfo;
  index: number;
}

/** Visits every container, outermost first. */
function eachContainer(controls: DesignerControl[], visit: (info: ContainerInfo) => boolean | void): void {
  const walk = (info: ContainerInfo): boolean => {
    if (visit(info)) return true;
    for (const control of info.controls) {
      if (control.controls) {
        const isSubTable = controlTypeByKey(control.type).dataType === 'children';
        const kind: ControlContainerKind = isSubTable ? 'subTable' : 'layout';
        const inner = { id: control.uid, controls: control.controls, chain: [...info.chain, kind], owner: control, subTable: isSubTable ? control : info.subTable };
        if (walk(inner)) return true;
      }
      for (const pane of control.panes ?? []) {
        if (walk({ id: pane.uid, controls: pane.controls, chain: [...info.chain, 'tab'], owner: control, subTable: info.subTable })) return true;
      }
    }
    return false;
  };
  walk({ id: ROOT, controls, chain: ['root'] });
}

export function findContainer(controls: DesignerControl[], id: string): ContainerInfo | undefined {
  let found: ContainerInfo | undefined;
  eachContainer(controls, (info) => {
    if (info.id === id) found = info;
    return !!found;
  });
  return found;
}

export function locateControl(controls: DesignerControl[], uid: string): ControlLocation | undefined {
  let found: ControlLocation | undefined;
  eachContainer(controls, (container) => {
    const index = container.controls.findIndex((control) => control.uid === uid);
    if (index >= 0) found = { control: container.controls[index], container, index };
    return !!found;
  });
  return found;
}

/** Every control of the form, sub-table columns and the contents of layouts and tabs included. */
export function allControls(controls: DesignerControl[]): DesignerControl[] {
  const list: DesignerControl[] = [];
  eachContainer(controls, (info) => void list.push(...info.controls));
  return list;
}

/** Applies `change` to one container's list, leaving everything else as it is. */
export function mapContainer(controls: DesignerControl[], id: string, change: (list: DesignerControl[]) => DesignerControl[]): DesignerControl[] {
  if (id === ROOT) return change(controls);
  return controls.map((control) => {
    if (control.uid === id && control.controls) return { ...control, controls: change(control.controls) };
    if (!control.controls && !control.panes) return control;
    return {
      ...control,
      ...(control.controls ? { controls: mapContainer(control.controls, id, change) } : {}),
      ...(control.panes
        ? { panes: control.panes.map((pane) => ({ ...pane, controls: pane.uid === id ? change(pane.controls) : mapContainer(pane.controls, id, change) })) }
        : {}),
    };
  });
}

/** Replaces one control (found anywhere) with `change(control)`. */
export function updateControl(controls: DesignerControl[], uid: string, change: (control: DesignerControl) => DesignerControl): DesignerControl[] {
  const location = locateControl(controls, uid);
  if (!location) return controls;
  return mapContainer(controls, location.container.id, (list) => list.map((control) => (control.uid === uid ? change(control) : control)));
}

export function removeControl(controls: DesignerControl[], uid: string): DesignerControl[] {
  const location = locateControl(controls, uid);
  if (!location) return controls;
  return mapContainer(controls, location.container.id, (list) => list.filter((control) => control.uid !== uid));
}

export function insertControl(controls: DesignerControl[], containerId: string, index: number | undefined, control: DesignerControl): DesignerControl[] {
  return mapContainer(controls, containerId, (list) => {
    const at = index === undefined ? list.length : Math.max(0, Math.min(index, list.length));
    return [...list.slice(0, at), control, ...list.slice(at)];
  });
}

/** The system column a system control shows; its code must be that column's name (control-definition.ts). */
export function systemFieldOf(type: AnyControlType): string | undefined {
  return type.column && 'systemField' in type.column ? type.column.systemField : undefined;
}

/** Codes a control in this container must not repeat: the main table's, or one sub-table's columns. */
export function codesInScope(controls: DesignerControl[], container: ContainerInfo, exceptUid?: string): Set<string> {
  const scope = container.subTable ? container.subTable.controls ?? [] : controls;
  const codes = new Set<string>();
  const collect = (list: DesignerControl[]) => {
    for (const control of list) {
      if (control.uid !== exceptUid) codes.add(control.code.toLowerCase());
      // Sub-table columns have a scope of their own.
      if (control.controls && controlTypeByKey(control.type).dataType !== 'children') collect(control.controls);
      for (const pane of control.panes ?? []) collect(pane.controls);
    }
  };
  collect(scope);
  return codes;
}

const GENERATED_CODE = /^F(\d+)$/i;

/** The next free code F0001, F0002… in a scope: one past the highest generated code there. */
export function nextCode(codes: Iterable<string>): string {
  let highest = 0;
  for (const code of codes) {
    const match = GENERATED_CODE.exec(code);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return `F${String(highest + 1).padStart(4, '0')}`;
}

/** May a new control of this type go into this container? */
export function checkAdd(controls: DesignerControl[], typeKey: string, containerId: string): DropCheck {
  const container = findContainer(controls, containerId);
  if (!container) return 'other';
  return verifyControlAdd(snapshotOf(controls), typeKey, container.chain);
}

/** May this control move into this container? It is counted as already gone, so one-per-form types may move. */
export function checkMove(controls: DesignerControl[], uid: string, containerId: string): DropCheck {
  const location = locateControl(controls, uid);
  if (!location) return 'other';
  if (containerId !== ROOT && findContainer([location.control], containerId)) return 'cycle';
  const without = removeControl(controls, uid);
  const container = findContainer(without, containerId);
  if (!container) return 'other';
  const result = verifyControlAdd(snapshotOf(without), location.control.type, container.chain);
  if (result !== 'success') return result;
  // A column moving between sub-tables (or in and out of one) changes code scope: its code must stay unique.
  const codes = codesInScope(without, container);
  return codes.has(location.control.code.toLowerCase()) ? 'other' : 'success';
}

const systemFieldNames = new Set(SYSTEM_FIELDS.map((field) => field.toLowerCase()));

export type CodeProblem = { kind: 'invalid'; message: string } | { kind: 'taken' } | { kind: 'systemField' };

/** What is wrong with a code typed for a control: format, a system field name, or a code taken in its scope. */
export function codeProblem(controls: DesignerControl[], uid: string, code: string): CodeProblem | undefined {
  const location = locateControl(controls, uid);
  if (!location) return undefined;
  const type = controlTypeByKey(location.control.type);
  if (systemFieldOf(type)) return undefined;
  const parsed = controlCodeSchema.safeParse(code);
  if (!parsed.success) return { kind: 'invalid', message: parsed.error.issues[0]?.message ?? '' };
  if (type.column && systemFieldNames.has(code.toLowerCase())) return { kind: 'systemField' };
  if (codesInScope(controls, location.container, uid).has(code.toLowerCase())) return { kind: 'taken' };
  return undefined;
}

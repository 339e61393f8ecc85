/**
 * The one module that owns the designer's state: the draft (form attributes and control tree), the selected
 * control, the open tab panes and whether there are unsaved changes. Every change is an action; the
 * components only dispatch and read.
 */
import { controlTypeByKey, type ControlTypeKey } from '@tritium/shared/controls/index';
import type { contracts } from '@tritium/shared';
import { newOptions } from '../options/schema-fields.ts';
import {
  ROOT,
  checkAdd,
  checkMove,
  codesInScope,
  findContainer,
  insertControl,
  locateControl,
  nextCode,
  removeControl,
  systemFieldOf,
  updateControl,
  type DesignerControl,
  type DesignerPane,
} from './control-tree.ts';

type FormAttributes = contracts.FormAttributes;
type ControlDefinition = contracts.FormDefinition['controls'][number];
type ControlDefinitionInput = contracts.FormDefinitionInput['controls'][number];

export interface DesignerState {
  attributes: FormAttributes;
  controls: DesignerControl[];
  selectedUid: string | null;
  /** The pane shown in each tab control (tab uid → pane uid); the first pane when missing. */
  activePanes: Record<string, string>;
  /** The draft version on the server: the next save's baseVersion. */
  version: number;
  /** Counts changes made here; equal to savedRevision when everything is saved. */
  revision: number;
  savedRevision: number;
}

/** Where something goes: a container and a position in it (the end when missing). */
export interface DropTarget {
  containerId: string;
  index?: number;
}

export type DesignerAction =
  | { type: 'load'; definition: contracts.FormDefinition; version: number }
  | { type: 'add'; typeKey: ControlTypeKey; target: DropTarget; uid: string; paneTitles: string[] }
  | { type: 'move'; uid: string; target: DropTarget }
  | { type: 'remove'; uid: string }
  | { type: 'select'; uid: string | null }
  | { type: 'setOptions'; uid: string; options: Record<string, unknown> }
  | { type: 'setCode'; uid: string; code: string }
  | { type: 'addPane'; tabUid: string; paneUid: string; title: string }
  | { type: 'renamePane'; paneUid: string; title: string }
  | { type: 'removePane'; paneUid: string }
  | { type: 'showPane'; tabUid: string; paneUid: string }
  | { type: 'setAttributes'; patch: Partial<FormAttributes> }
  | { type: 'saved'; revision: number; version: number };

let uidCounter = 0;
/** A designer-only id; never saved. */
export const newUid = () => `c${(uidCounter += 1)}`;

const paneUidOf = (tabUid: string, n: number) => `${tabUid}.p${n}`;

function fromDefinition(list: readonly ControlDefinition[]): DesignerControl[] {
  return list.map((control) => {
    const uid = newUid();
    return {
      uid,
      type: control.type,
      code: control.code,
      options: { ...(control.options as Record<string, unknown>) },
      ...(control.controls ? { controls: fromDefinition(control.controls) } : {}),
      ...(control.panes ? { panes: control.panes.map((pane, i) => ({ uid: paneUidOf(uid, i + 1), title: pane.title, controls: fromDefinition(pane.controls) })) } : {}),
    };
  });
}

export function initialState(definition: contracts.FormDefinition, version: number): DesignerState {
  return {
    attributes: definition.attributes,
    controls: fromDefinition(definition.controls),
    selectedUid: null,
    activePanes: {},
    version,
    revision: 0,
    savedRevision: 0,
  };
}

function toControlInputs(list: DesignerControl[]): ControlDefinitionInput[] {
  return list.map((control) => ({
    type: control.type,
    code: control.code,
    options: control.options,
    ...(control.controls ? { controls: toControlInputs(control.controls) } : {}),
    ...(control.panes ? { panes: control.panes.map((pane) => ({ title: pane.title, controls: toControlInputs(pane.controls) })) } : {}),
  }));
}

/** The draft as the save call sends it. */
export function toDefinition(state: Pick<DesignerState, 'attributes' | 'controls'>): contracts.FormDefinitionInput {
  return { attributes: state.attributes, controls: toControlInputs(state.controls) };
}

export const isDirty = (state: DesignerState) => state.revision !== state.savedRevision;

function newControl(controls: DesignerControl[], typeKey: ControlTypeKey, target: DropTarget, uid: string, paneTitles: string[]): DesignerControl | undefined {
  const container = findContainer(controls, target.containerId);
  if (!container) return undefined;
  const type = controlTypeByKey(typeKey);
  const code = systemFieldOf(type) ?? nextCode(codesInScope(controls, container));
  return {
    uid,
    type: typeKey,
    code,
    options: newOptions(type.options),
    ...(type.children === 'controls' ? { controls: [] } : {}),
    ...(type.children === 'panes' ? { panes: paneTitles.map((title, i) => ({ uid: paneUidOf(uid, i + 1), title, controls: [] })) } : {}),
  };
}

function mapPanes(controls: DesignerControl[], paneUid: string, change: (panes: DesignerPane[]) => DesignerPane[]): DesignerControl[] {
  const owner = findContainer(controls, paneUid)?.owner;
  return owner?.panes ? updateControl(controls, owner.uid, (tab) => ({ ...tab, panes: change(tab.panes ?? []) })) : controls;
}

/** Changes to the draft; selection and shown panes are not changes. */
function edit(state: DesignerState, controls: DesignerControl[], extra: Partial<DesignerState> = {}): DesignerState {
  return { ...state, ...extra, controls, revision: state.revision + 1 };
}

export function designerReducer(state: DesignerState, action: DesignerAction): DesignerState {
  switch (action.type) {
    case 'load':
      return initialState(action.definition, action.version);
    case 'add': {
      // The palette shows why an add is refused; here a refused add simply changes nothing.
      if (checkAdd(state.controls, action.typeKey, action.target.containerId) !== 'success') return state;
      const control = newControl(state.controls, action.typeKey, action.target, action.uid, action.paneTitles);
      if (!control) return state;
      return edit(state, insertControl(state.controls, action.target.containerId, action.target.index, control), { selectedUid: control.uid });
    }
    case 'move': {
      if (checkMove(state.controls, action.uid, action.target.containerId) !== 'success') return state;
      const location = locateControl(state.controls, action.uid)!;
      const moved = insertControl(removeControl(state.controls, action.uid), action.target.containerId, action.target.index, location.control);
      return edit(state, moved);
    }
    case 'remove': {
      if (!locateControl(state.controls, action.uid)) return state;
      const controls = removeControl(state.controls, action.uid);
      const selectedUid = state.selectedUid && locateControl(controls, state.selectedUid) ? state.selectedUid : null;
      return edit(state, controls, { selectedUid });
    }
    case 'select':
      return { ...state, selectedUid: action.uid };
    case 'setOptions':
      return edit(state, updateControl(state.controls, action.uid, (control) => ({ ...control, options: action.options })));
    case 'setCode':
      return edit(state, updateControl(state.controls, action.uid, (control) => ({ ...control, code: action.code })));
    case 'addPane':
      return edit(
        state,
        updateControl(state.controls, action.tabUid, (tab) => ({ ...tab, panes: [...(tab.panes ?? []), { uid: action.paneUid, title: action.title, controls: [] }] })),
        { activePanes: { ...state.activePanes, [action.tabUid]: action.paneUid } },
      );
    case 'renamePane':
      return edit(state, mapPanes(state.controls, action.paneUid, (panes) => panes.map((pane) => (pane.uid === action.paneUid ? { ...pane, title: action.title } : pane))));
    case 'removePane': {
      // A tab keeps at least one pane.
      const owner = findContainer(state.controls, action.paneUid)?.owner;
      if (!owner?.panes || owner.panes.length <= 1) return state;
      return edit(state, mapPanes(state.controls, action.paneUid, (panes) => panes.filter((pane) => pane.uid !== action.paneUid)));
    }
    case 'showPane':
      return { ...state, activePanes: { ...state.activePanes, [action.tabUid]: action.paneUid } };
    case 'setAttributes':
      return { ...state, attributes: { ...state.attributes, ...action.patch }, revision: state.revision + 1 };
    case 'saved':
      return { ...state, version: action.version, savedRevision: action.revision };
  }
}

/** The pane a tab shows now. */
export function activePaneOf(state: Pick<DesignerState, 'activePanes'>, tab: DesignerControl): DesignerPane | undefined {
  const panes = tab.panes ?? [];
  return panes.find((pane) => pane.uid === state.activePanes[tab.uid]) ?? panes[0];
}

/**
 * Where a palette click puts a control: into the selected sub-table, layout or tab (its open pane); after the
 * selected control in its container; at the end of the form when nothing is selected.
 */
export function clickTarget(state: DesignerState): DropTarget {
  const location = state.selectedUid ? locateControl(state.controls, state.selectedUid) : undefined;
  if (!location) return { containerId: ROOT };
  const { control } = location;
  if (control.controls) return { containerId: control.uid };
  if (control.panes) {
    const pane = activePaneOf(state, control);
    if (pane) return { containerId: pane.uid };
  }
  return { containerId: location.container.id, index: location.index + 1 };
}

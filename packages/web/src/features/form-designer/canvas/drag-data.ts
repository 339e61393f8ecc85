/** What travels with a drag (a palette item or a canvas control) and what a drop target says about itself. */
import type { KeyboardEventHandler, PointerEventHandler } from 'react';
import type { ControlTypeKey } from '@tritium/shared/controls/index';
import { checkAdd, checkMove, type DesignerControl, type DropCheck } from '../state/control-tree.ts';
import type { DropTarget } from '../state/designer-state.ts';

export type DragItem = { source: 'palette'; typeKey: ControlTypeKey } | { source: 'canvas'; uid: string };

export interface DropData extends DropTarget {
  /** Controls enclosing the target: a control is never offered a target inside itself. */
  ancestors: string[];
}

export const paletteDragId = (typeKey: string) => `palette:${typeKey}`;
export const controlDragId = (uid: string) => `drag:${uid}`;
export const controlDropId = (uid: string) => `card:${uid}`;
export const zoneDropId = (containerId: string) => `zone:${containerId}`;

export const asDragItem = (data: unknown) => (data && typeof data === 'object' && 'source' in data ? (data as DragItem) : undefined);
export const asDropData = (data: unknown) => (data && typeof data === 'object' && 'containerId' in data ? (data as DropData) : undefined);

/** Would dropping this item into this container be accepted? */
export function checkDrop(controls: DesignerControl[], item: DragItem, containerId: string): DropCheck {
  return item.source === 'palette' ? checkAdd(controls, item.typeKey, containerId) : checkMove(controls, item.uid, containerId);
}

type Listeners = Record<string, unknown> | undefined;
/** dnd-kit's pointer activator, typed for an element (it types its listeners as plain functions). */
export const pointerActivator = (listeners: Listeners) => listeners?.onPointerDown as PointerEventHandler<HTMLElement> | undefined;
/** dnd-kit's keyboard activator, for a drag handle. */
export const keyboardActivator = (listeners: Listeners) => listeners?.onKeyDown as KeyboardEventHandler<HTMLElement> | undefined;

import { createContext, useContext, type Dispatch } from 'react';
import type { ControlTypeKey } from '@tritium/shared/controls/index';
import type { DesignerControl } from '../state/control-tree.ts';
import type { DesignerAction, DesignerState, DropTarget } from '../state/designer-state.ts';

export interface DesignerContextValue {
  state: DesignerState;
  dispatch: Dispatch<DesignerAction>;
  /** Adds a control after checking the target; says why when refused. Without a target: where a click adds. */
  addControl(typeKey: ControlTypeKey, target?: DropTarget): boolean;
  /** Moves a control after checking the target; says why when refused. */
  moveControl(uid: string, target: DropTarget): boolean;
  /** Asks what depends on the control, then whether to remove it. */
  requestRemove(control: DesignerControl): void;
}

export const DesignerContext = createContext<DesignerContextValue | null>(null);

export function useDesignerContext(): DesignerContextValue {
  const value = useContext(DesignerContext);
  if (!value) throw new Error('useDesignerContext outside the form designer');
  return value;
}

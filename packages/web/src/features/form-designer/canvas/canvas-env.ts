import { createContext, useContext, type ReactNode } from 'react';
import type { DesignerControl } from '../state/control-tree.ts';

/** How a list of controls is laid out: one under another, side by side as table columns, or in a grid of cells. */
export type ListKind = 'stack' | 'columns' | 'grid';

export interface ListArgs {
  containerId: string;
  controls: DesignerControl[];
  /** The controls enclosing the list, outermost first (a control may not be dropped inside itself). */
  ancestors: string[];
  kind: ListKind;
  /** Names the list (and the drop zone) for assistive technology. */
  label: string;
  columns?: number;
  emptyText: string;
}

/** What differs between the designer's canvas and the preview; the control renderings are shared. */
export interface CanvasEnv {
  mode: 'design' | 'preview';
  device: 'pc' | 'phone';
  titleWidth: number;
  renderList(args: ListArgs): ReactNode;
  activePane(tab: DesignerControl): string | undefined;
  showPane(tab: DesignerControl, paneUid: string): void;
}

export const CanvasEnvContext = createContext<CanvasEnv | null>(null);

export function useCanvasEnv(): CanvasEnv {
  const env = useContext(CanvasEnvContext);
  if (!env) throw new Error('useCanvasEnv outside a canvas');
  return env;
}

export const isVisible = (control: DesignerControl) => control.options.visible !== false;

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/** The workbench's left panes that fold away to give the content the width. */
export type FoldablePane = 'appList' | 'functionTree';

export type PaneFolds = Record<FoldablePane, boolean>;

const UNFOLDED: PaneFolds = { appList: false, functionTree: false };
const FOLDED: PaneFolds = { appList: true, functionTree: true };

/** Per engine and per user: two people sharing a browser keep their own layout. */
export const paneFoldsStorageKey = (engineCode: string, userId: string) => `tritium.workbench.pane-folds.${engineCode}.${userId}`;

export function readPaneFolds(storageKey: string): PaneFolds {
  try {
    const parsed = JSON.parse(localStorage.getItem(storageKey) ?? '{}') as Partial<Record<FoldablePane, unknown>>;
    return { appList: parsed.appList === true, functionTree: parsed.functionTree === true };
  } catch {
    return UNFOLDED;
  }
}

function writePaneFolds(storageKey: string, folds: PaneFolds): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(folds));
  } catch {
    // Storage full or blocked: the layout still changes, only not for the next visit.
  }
}

interface PaneFoldsState {
  folds: PaneFolds;
  toggle: (pane: FoldablePane) => void;
  /** A wide screen opened (a designer): both panes fold until it closes, without changing the remembered choice. */
  enterWide: () => void;
  leaveWide: () => void;
}

const PaneFoldsContext = createContext<PaneFoldsState>({ folds: UNFOLDED, toggle: () => undefined, enterWide: () => undefined, leaveWide: () => undefined });

/** The fold state of the workbench's panes, remembered in this browser under `storageKey`. */
export function PaneFoldsProvider({ storageKey, children }: { storageKey: string; children: ReactNode }) {
  const [stored, setStored] = useState<PaneFolds>(() => readPaneFolds(storageKey));
  // While a wide screen is open its folds apply; toggling then changes only them.
  const [wide, setWide] = useState<PaneFolds | null>(null);
  const toggle = useCallback(
    (pane: FoldablePane) => {
      if (wide) return setWide({ ...wide, [pane]: !wide[pane] });
      const next = { ...stored, [pane]: !stored[pane] };
      setStored(next);
      writePaneFolds(storageKey, next);
    },
    [wide, stored, storageKey],
  );
  const enterWide = useCallback(() => setWide(FOLDED), []);
  const leaveWide = useCallback(() => setWide(null), []);
  const value = useMemo(() => ({ folds: wide ?? stored, toggle, enterWide, leaveWide }), [wide, stored, toggle, enterWide, leaveWide]);
  return <PaneFoldsContext.Provider value={value}>{children}</PaneFoldsContext.Provider>;
}

export const usePaneFolds = () => useContext(PaneFoldsContext);

/** Folds the workbench's panes while the calling screen is shown (screens that need the width, such as designers). */
export function useWideLayout(): void {
  const { enterWide, leaveWide } = usePaneFolds();
  useEffect(() => {
    enterWide();
    return leaveWide;
  }, [enterWide, leaveWide]);
}

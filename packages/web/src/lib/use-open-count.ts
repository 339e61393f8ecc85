import { useState } from 'react';

/**
 * How many times a dialog has opened. Used as the key of the form component inside it, so every opening gets a
 * new form store from its initial values: antd keeps a closed dialog's form store, and a remounted Form reads
 * its initial values before the old one's clean-up runs, so a shared store brings back the last values.
 */
export function useOpenCount(open: boolean): number {
  const [count, setCount] = useState(open ? 1 : 0);
  const [wasOpen, setWasOpen] = useState(open);
  // Adjusting state while rendering (React's pattern for "state derived from a prop change").
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setCount(count + 1);
  }
  return count;
}

/** Batch scan's rules, apart from the screen: which codes a scan adds, and the sub-table rows they fill. */
import { MAX_BATCH_SCAN_ITEMS } from '@tritium/shared/constants/limits';
import { newRowKey, type GridRow } from '../model/form-values.ts';

export interface ScanResult {
  value: string[];
  added: string[];
  /** Codes left out: already scanned (duplicates not allowed) or past the cap. */
  repeated: string[];
  overLimit: boolean;
}

/** The codes after `codes` are scanned onto `current`: trimmed, blanks dropped, repeats kept only when allowed. */
export function addScanned(current: readonly string[], codes: readonly string[], allowDuplicates: boolean, max = MAX_BATCH_SCAN_ITEMS): ScanResult {
  const value = [...current];
  const added: string[] = [];
  const repeated: string[] = [];
  let overLimit = false;
  for (const raw of codes) {
    const code = raw.trim();
    if (!code) continue;
    if (!allowDuplicates && value.includes(code)) repeated.push(code);
    else if (value.length >= max) overLimit = true;
    else {
      value.push(code);
      added.push(code);
    }
  }
  return { value, added, repeated, overLimit };
}

/** The sub-table a scan fills and its column (the control's settings), or null when it fills none. */
export function scanTarget(options: Record<string, unknown>): { grid: string; column: string } | null {
  const grid = options.targetGridView;
  const column = options.targetColumn;
  return typeof grid === 'string' && grid && typeof column === 'string' && column ? { grid, column } : null;
}

/** One new row per code, the code in the target column. */
export const rowsFor = (column: string, codes: readonly string[]): GridRow[] => codes.map((code) => ({ __key: newRowKey(), [column]: code }));

/** The rows without the last one that holds `code` in the column (the row its scan made). */
export function withoutRowOf(rows: readonly GridRow[], column: string, code: string): GridRow[] {
  const index = rows.map((row) => row[column]).lastIndexOf(code);
  return index < 0 ? [...rows] : [...rows.slice(0, index), ...rows.slice(index + 1)];
}

import type { AnyControlType } from '@tritium/shared/controls/index';

// File controls (docs/decisions/0008): the control types whose value references uploaded files — data type `files`
// (attachment, photo, OCR: a list of refs) or `file` (hand sign: one ref) — on the main form or in a sub-table.

export const isFileControl = (type: Pick<AnyControlType, 'dataType'>): boolean => type.dataType === 'file' || type.dataType === 'files';

/** The file ids a file control's value references (a ref, a list of refs, or empty). */
export function fileIdsOf(value: unknown): string[] {
  const refs = Array.isArray(value) ? value : value == null ? [] : [value];
  return refs.flatMap((ref) => (ref && typeof ref === 'object' && typeof (ref as { id?: unknown }).id === 'string' ? [(ref as { id: string }).id] : []));
}

/** A file control's value rebuilt from refs: one ref (or null) for `file`, the list for `files`. */
export function fileValueOf<T>(type: Pick<AnyControlType, 'dataType'>, refs: T[]): T | T[] | null {
  return type.dataType === 'file' ? (refs[0] ?? null) : refs;
}

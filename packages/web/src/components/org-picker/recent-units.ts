import { getEngineCode } from '../../lib/session.ts';
import type { PickerCandidate, PickerKind } from './picker-types.ts';

/** The picker's 最近使用 list keeps the last picks, newest first. */
export const RECENT_MAX = 10;

// Per engine and per kind: people of one organisation never show up in another's picker.
export const recentStorageKey = (kind: PickerKind, engineCode = getEngineCode() ?? 'none') => `tritium.org-picker.recent.${engineCode}.${kind}`;

function isCandidate(value: unknown): value is PickerCandidate {
  const item = value as PickerCandidate;
  return !!item && typeof item.id === 'string' && typeof item.name === 'string' && typeof item.isExternal === 'boolean';
}

export function readRecent(kind: PickerKind): PickerCandidate[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(recentStorageKey(kind)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isCandidate).slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

/** Puts the picks in front of the list, without repeats, and keeps the newest RECENT_MAX. */
export function rememberPicks(kind: PickerKind, picks: PickerCandidate[]): void {
  if (!picks.length) return;
  const ids = new Set(picks.map((p) => p.id));
  const next = [...picks, ...readRecent(kind).filter((r) => !ids.has(r.id))].slice(0, RECENT_MAX);
  const stored = next.map(({ id, name, isExternal, parentName, mobile }) => ({ id, name, isExternal, parentName, mobile: mobile ?? null }));
  try {
    localStorage.setItem(recentStorageKey(kind), JSON.stringify(stored));
  } catch {
    // Storage full or blocked: the list is a convenience, the pick itself succeeded.
  }
}

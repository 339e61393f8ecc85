import type { contracts } from '@tritium/shared';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';

// Records the assistant drafted (docs/decisions/0126), handed from the conversation to the form's new-record page in
// a new tab (the conversation stays open in its own): kept in the browser's local storage under a key the page's
// address carries (`?aiDraft=<key>`); drafts older than a day are cleared when the next one is kept.

export const DRAFT_PARAM = 'aiDraft';
const PREFIX = 'tritium.aiDraft.';
const DAY_MS = 24 * 3600 * 1000;

function clearOld(now: number): void {
  for (let i = localStorage.length - 1; i >= 0; i -= 1) {
    const name = localStorage.key(i);
    if (!name?.startsWith(PREFIX)) continue;
    const at = Number((JSON.parse(localStorage.getItem(name) ?? '{}') as { at?: number }).at ?? 0);
    if (now - at > DAY_MS) localStorage.removeItem(name);
  }
}

/** Keeps a draft and answers the address of the form's new-record page that fills itself with it. */
export function stashDraft(draft: contracts.RecordDraft): string {
  const key = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  try {
    const now = Date.now();
    clearOld(now);
    localStorage.setItem(PREFIX + key, JSON.stringify({ at: now, draft }));
  } catch {
    // No storage (private mode, full): the page opens empty.
  }
  return `${FORM_RUNTIME_PATH}/${encodeURIComponent(draft.schemaCode)}?${DRAFT_PARAM}=${key}`;
}

/** The draft the address names, for this form. */
export function takeDraft(schemaCode: string, search: string = window.location.search): contracts.RecordDraft | null {
  const key = new URLSearchParams(search).get(DRAFT_PARAM);
  if (!key) return null;
  try {
    const text = localStorage.getItem(PREFIX + key);
    if (!text) return null;
    const { draft } = JSON.parse(text) as { draft?: contracts.RecordDraft };
    return draft?.schemaCode === schemaCode ? draft : null;
  } catch {
    return null;
  }
}

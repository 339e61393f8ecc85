/**
 * Text PostgreSQL refuses (docs/decisions/0028): it stores no U+0000 in text or jsonb, and no UTF-16 half without
 * its pair (invalid UTF-8). Such input is refused where it enters — the server's edge, an imported cell — with a
 * parameter error instead of failing in the database as a server error.
 */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export type UnstorableReason = 'nulCharacter' | 'loneSurrogate';

/** Why `text` cannot be stored, or null. */
export function unstorableReason(text: string): UnstorableReason | null {
  if (text.includes('\u0000')) return 'nulCharacter';
  if (LONE_SURROGATE.test(text)) return 'loneSurrogate';
  return null;
}

export interface BadInput {
  /** Dotted path of the value (object keys and list indexes), '' for the value itself. */
  path: string;
  reason: UnstorableReason | 'nestedTooDeep';
}

export interface FindBadInputOptions {
  /** Deepest nesting of objects and lists accepted (the value itself is level 0). */
  maxDepth: number;
  /**
   * Strings that hold JSON ('{…}' / '[…]') are read too: the legacy and open-API adapters parse such strings
   * (BizObject, Filter, PostData), so what is inside must pass the same check.
   */
  readJsonStrings?: boolean;
}

const join = (base: string, key: string | number) => (base ? `${base}.${key}` : String(key));

/**
 * The first unstorable string (value or object key) or over-deep nesting in a parsed JSON value; null when fine.
 * Walks with an explicit stack, so a body nested 10,000 levels deep cannot overflow the call stack.
 */
export function findBadInput(value: unknown, options: FindBadInputOptions): BadInput | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const v = item.value;
    if (typeof v === 'string') {
      const reason = unstorableReason(v);
      if (reason) return { path: item.path, reason };
      if (options.readJsonStrings && looksLikeJson(v) && !holdsNothingNew(v, options.maxDepth - item.depth)) {
        const parsed = tryParse(v);
        if (parsed !== undefined) stack.push({ value: parsed, path: item.path, depth: item.depth });
      }
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    // Parsed query strings and route parameters are plain records with their own prototypes; streams (uploads),
    // byte arrays and dates hold no text to check.
    if (ArrayBuffer.isView(v) || v instanceof Date || typeof (v as { pipe?: unknown }).pipe === 'function') continue;
    if (item.depth >= options.maxDepth) return { path: item.path, reason: 'nestedTooDeep' };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: join(item.path, i), depth: item.depth + 1 });
      continue;
    }
    const entries = Object.entries(v as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      const reason = unstorableReason(key);
      // The path is echoed to the caller: the offending characters themselves are shown as U+FFFD.
      if (reason) return { path: join(item.path, key.replace(/\u0000|[\ud800-\udfff]/g, '\ufffd')), reason };
      stack.push({ value: child, path: join(item.path, key), depth: item.depth + 1 });
    }
  }
  return null;
}

/**
 * Whether reading JSON text (already checked as a whole) could find nothing the text itself did not show: without a
 * backslash every string and key it holds is a piece of the text as written (no escape can make a NUL or a lone half),
 * and fewer brackets than the `levels` left mean no nesting too deep. Such text (an open-API BizObject, typically) is
 * not parsed here — the adapter that reads it parses it once.
 */
function holdsNothingNew(text: string, levels: number): boolean {
  if (text.includes('\\')) return false;
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x5b || c === 0x7b) && ++brackets >= levels) return false;
  }
  return true;
}

function looksLikeJson(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

import type { Db } from '../../db/types.ts';

// Built statements of the query engine, remembered per form (issue 26, docs/decisions/0100). A list's statement is
// the same text for every call of one shape: the form's published version and main table, the window's kind, the
// order, the caller's permitted scopes and the compiled WHERE's text (its values are bind parameters). Only the
// values change; they are laid out from the WHERE's parameters and the window's limit and offset.

/** A remembered statement: its text, and where its parameters come from (the WHERE's values, then limit and offset). */
export interface CachedStatement {
  sql: string;
  /** How many times the WHERE's parameters appear, one after another, before limit and offset. */
  whereCopies: number;
  /** False for a statement without a window (a count): no limit and offset follow the WHERE's values. */
  windowed?: boolean;
}

/** One form's statements, valid for one published version of one main table (a publish makes a new entry). */
interface FormStatements {
  version: string;
  statements: Map<string, CachedStatement | 'uncached'>;
}

/** Shapes kept per form: beyond it the oldest is forgotten (a view's filters are a handful of shapes). */
export const SHAPES_PER_FORM = 64;
/**
 * Statements kept per database in all: beyond it the least recently used forms are forgotten. A statement and its key
 * are a few kB of text, so the cache stays within about 10 MB.
 */
export const STATEMENTS_KEPT = 2000;

interface DatabaseStatements {
  forms: Map<string, FormStatements>;
  /** Statements held by all the forms. */
  size: number;
}

const byDatabase = new WeakMap<Db, DatabaseStatements>();

/** The form's key: never shared across engines (their schemas), nor across a form removed and made again. */
const formKey = (engineCode: string, schemaCode: string, objectId: string) => `${engineCode}\u0000${schemaCode}\u0000${objectId}`;

/** One form's statements as published now, and how to remember another; an older version's are dropped at once. */
export function statementsOf(db: Db, form: { engineCode: string; schemaCode: string; objectId: string; version: number; mainTable: string; uuidIds?: boolean }) {
  let cache = byDatabase.get(db);
  if (!cache) byDatabase.set(db, (cache = { forms: new Map(), size: 0 }));
  const { forms } = cache;
  const key = formKey(form.engineCode, form.schemaCode, form.objectId);
  // The table's id columns converted to uuid (decision 0128) replace the statements too, as a publish does.
  const version = `${form.version}\u0000${form.mainTable}${form.uuidIds ? '\u0000uuid' : ''}`;
  let entry = forms.get(key);
  if (entry) forms.delete(key);
  if (entry && entry.version !== version) {
    cache.size -= entry.statements.size;
    entry = undefined;
  }
  entry ??= { version, statements: new Map() };
  // Most recently used last: the first form is the one to forget.
  forms.set(key, entry);
  const { statements } = entry;
  const held = cache;
  return {
    get: (shape: string) => statements.get(shape),
    remember(shape: string, statement: CachedStatement | 'uncached') {
      if (!statements.has(shape)) held.size++;
      statements.set(shape, statement);
      if (statements.size > SHAPES_PER_FORM) {
        statements.delete(statements.keys().next().value!);
        held.size--;
      }
      for (const [k, f] of forms) {
        if (held.size <= STATEMENTS_KEPT || f === entry) break;
        forms.delete(k);
        held.size -= f.statements.size;
      }
    },
  };
}

/** The parameters of a cached statement for this call. */
export function parametersOf(statement: CachedStatement, whereParameters: readonly unknown[], limit: number, offset: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < statement.whereCopies; i++) out.push(...whereParameters);
  if (statement.windowed !== false) out.push(limit, offset);
  return out;
}

/**
 * How a freshly built statement's parameters are laid out, checked against what Kysely compiled: the WHERE's values
 * `copies` times, then limit and offset (none for a statement without a window). Undefined when they are laid out
 * otherwise (a scoped count's branches): such a shape is built every time.
 */
export function layoutOf(compiled: readonly unknown[], whereParameters: readonly unknown[], limit: number, offset: number, copies: number, windowed = true): CachedStatement['whereCopies'] | undefined {
  const expected = parametersOf({ sql: '', whereCopies: copies, windowed }, whereParameters, limit, offset);
  if (expected.length !== compiled.length) return undefined;
  return expected.every((v, i) => Object.is(v, compiled[i])) ? copies : undefined;
}

/** For tests: how many forms and shapes a database's cache holds. */
export function cacheSizeOf(db: Db): { forms: number; shapes: number } {
  const cache = byDatabase.get(db);
  return { forms: cache?.forms.size ?? 0, shapes: cache?.size ?? 0 };
}

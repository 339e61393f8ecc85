import { AppError } from '../../lib/app-error.ts';
import type { Issue } from './open-api-values.ts';
import type { RecordFilesDeps } from '../business-data/record-files.ts';

/** What an action of Invoke may use besides its context. */
export interface InvokeDeps {
  files: RecordFilesDeps;
  now: () => Date;
}

// Reading the flat Invoke body (h3yun-facts §1.1): nested objects may come as JSON strings, IsSubmit as "true"/"false".
// Problems become a 320003 whose message names the parameter; no exception text reaches the caller.

export type Body = Record<string, unknown>;

/** At most this many records a call: LoadBizObjects' window and CreateBizObjects' array. */
export const OPEN_API_MAX_ROWS = 500;

export function badRequest(issues: Issue[]): AppError {
  return new AppError('OpenApiBadRequest', { detail: { issues } });
}

export function text(body: Body, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || !value.trim() || value.length > 200) throw badRequest([{ path: key, message: '必填，须为字符串' }]);
  return value.trim();
}

/** An object sent as a JSON string or as an object. */
export function object(value: unknown, path: string): Record<string, unknown> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest([{ path, message: '须为 JSON 对象字符串' }]);
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest([{ path, message: '须为 JSON 对象' }]);
  return parsed as Record<string, unknown>;
}

/** true / false, or the strings "true" / "false" (any case); absent = `fallback`. */
export function flag(value: unknown, path: string, fallback: boolean): boolean {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw badRequest([{ path, message: '须为 true 或 false' }]);
}

/** A whole number ≥ 0; absent = `fallback`. */
export function rowNum(value: unknown, path: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw badRequest([{ path, message: '须为不小于 0 的整数' }]);
  return n;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A BizObjectId: an id that is not a UUID names no record (250001, never a database error). */
export function objectId(body: Body): string {
  const id = text(body, 'BizObjectId');
  if (!UUID.test(id)) throw new AppError('BizObjectNotFound', { detail: { objectId: id } });
  return id;
}

/**
 * Runs `work`; the paths of a 777's issues are renamed into the request's terms (values.X → BizObject.X, …) so the
 * caller sees where its payload is wrong.
 */
export async function renamingIssues<T>(work: () => Promise<T>, rename: (path: string) => string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.errorName === 'ParameterVerificationFailed') {
      const issues = ((error.detail as { issues?: Issue[] } | undefined)?.issues ?? []).map((i) => ({ ...i, path: rename(i.path) }));
      throw new AppError('ParameterVerificationFailed', { detail: { issues } });
    }
    if (error instanceof AppError && error.errorName === 'BizObjectDuplicate') {
      const detail = error.detail as { field?: string; issues?: Issue[] } | undefined;
      throw new AppError('BizObjectDuplicate', { message: error.message, detail: { ...detail, issues: (detail?.issues ?? []).map((i) => ({ ...i, path: rename(i.path) })) } });
    }
    throw error;
  }
}

/** values.X / children.G.i.c → `<prefix>.X` / `<prefix>.G.i.c`. */
export const recordPath = (prefix: string) => (path: string) => path.replace(/^(values|children)\./, `${prefix}.`);

/** The query engine's filter paths → the Matcher's (filter.children.0.field → Filter.Matcher.Matchers.0.Name). */
export function filterPath(path: string): string {
  if (path.startsWith('sort.')) return path.replace(/^sort\.(\d+)\.field$/, 'Filter.SortByCollection.$1.ItemName');
  return path
    .replace(/^filter/, 'Filter.Matcher')
    .replace(/\.children\./g, '.Matchers.')
    .replace(/\.field$/, '.Name')
    .replace(/\.operator$/, '.Operator')
    .replace(/\.value$/, '.Value');
}

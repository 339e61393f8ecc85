import { createHash } from 'node:crypto';
import { transform, type TransformFailure } from 'esbuild';
import { SCRIPT_FILE } from './sandbox-errors.ts';

// Scripts are compiled once per source (docs/decisions/0118): TypeScript or JavaScript to one IIFE whose exports land
// on SCRIPT_GLOBAL inside the VM, with a source map so that errors and log lines name the script's own lines.

/** The VM global the compiled script's exports are assigned to. */
export const SCRIPT_GLOBAL = '__script';
/** The file name the VM's stack traces give the compiled script (kept with the VM's errors: the worker loads no compiler). */
export { SCRIPT_FILE };

export type ScriptLanguage = 'ts' | 'js';

export interface CompiledScript {
  js: string;
  /** The script's own line (1-based) of a line of `js` (1-based); null where nothing maps. */
  lineOf(generatedLine: number): number | null;
}

/** A source that does not compile: the script's line and esbuild's message. */
export class ScriptCompileError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

/** Sources kept compiled (least recently used forgotten first). */
const CACHE_SIZE = 200;
const cache = new Map<string, Promise<CompiledScript>>();

/** Compiles (or answers from the cache) a script; throws ScriptCompileError with the script's line. */
export function compileScript(source: string, language: ScriptLanguage): Promise<CompiledScript> {
  const key = createHash('sha256').update(language).update('\u0000').update(source).digest('hex');
  const found = cache.get(key);
  if (found) {
    cache.delete(key);
    cache.set(key, found);
    return found;
  }
  const compiled = compile(source, language);
  cache.set(key, compiled);
  // A failed compile is not kept: the next attempt reports again (and a transient failure heals).
  compiled.catch(() => cache.delete(key));
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return compiled;
}

async function compile(source: string, language: ScriptLanguage): Promise<CompiledScript> {
  try {
    const out = await transform(source, {
      loader: language,
      format: 'iife',
      globalName: SCRIPT_GLOBAL,
      sourcemap: 'external',
      sourcefile: language === 'ts' ? 'script.ts' : 'script.js',
      target: 'es2020',
      logLevel: 'silent',
    });
    const lines = generatedToSource(JSON.parse(out.map).mappings as string);
    return { js: out.code, lineOf: (line) => lineAt(lines, line) };
  } catch (error) {
    const failure = error as Partial<TransformFailure>;
    const first = failure.errors?.[0];
    if (!first) throw error;
    const line = first.location?.line ?? null;
    throw new ScriptCompileError(`${line ? `第 ${line} 行` : ''}语法错误：${first.text}`, line);
  }
}

function lineAt(lines: (number | undefined)[], generatedLine: number): number | null {
  // A line without a mapping (a closing brace esbuild added) takes the nearest mapped line above it.
  for (let i = Math.min(generatedLine, lines.length) - 1; i >= 0; i--) if (lines[i] !== undefined) return lines[i]! + 1;
  return null;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/**
 * The first source line (0-based) each generated line maps to, from a source map's VLQ `mappings` (one source only:
 * a script is one file). Fields per segment: generated column, source index, source line, source column, name —
 * each but the generated column relative to the previous segment's across lines.
 */
export function generatedToSource(mappings: string): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  let sourceLine = 0;
  for (const line of mappings.split(';')) {
    let first: number | undefined;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const fields = decodeVlq(segment);
      if (fields.length < 4) continue;
      sourceLine += fields[2]!;
      first ??= sourceLine;
    }
    out.push(first);
  }
  return out;
}

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char);
    if (digit === undefined) break;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

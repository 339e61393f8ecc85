import { transform, type Message } from 'esbuild';
import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';

// Saves compile the source (docs/decisions/0118): a source that does not compile is refused (410102) with the first
// error's line, and a form's browser script keeps its compiled JavaScript for the form runtime (POST
// /v1/codeeditor/runtime). The sandbox compiles server scripts itself, with its own cache.

/** The global name a compiled browser script assigns its exports to, inside the form's sandboxed frame. */
export const BROWSER_SCRIPT_GLOBAL = '__formScript';

/** The compiled JavaScript of a source; throws CodeCompileFailed with the errors' lines when it does not compile. */
export async function compileScript(language: contracts.CustomCodeLanguage, source: string): Promise<string> {
  try {
    const out = await transform(source, { loader: language, format: 'iife', globalName: BROWSER_SCRIPT_GLOBAL, target: 'es2020', logLevel: 'silent' });
    return out.code;
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    if (!Array.isArray(errors) || !errors.length) throw error;
    const diagnostics = errors.slice(0, 20).map((e) => ({ line: e.location?.line ?? 1, column: (e.location?.column ?? 0) + 1, message: e.text }));
    const first = diagnostics[0]!;
    throw new AppError('CodeCompileFailed', { detail: { line: first.line, column: first.column, reason: first.message, diagnostics } });
  }
}

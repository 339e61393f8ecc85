import path from 'node:path';
import { readFileSync } from 'node:fs';
import type * as TS from 'typescript';
import type { contracts } from '@tritium/shared';
import { BROWSER_SCRIPT_API_DTS, SERVER_SCRIPT_API_DTS } from '@tritium/shared/script/script-api-types';

// POST /v1/codeeditor/check (docs/decisions/0118): TypeScript's checker over the script and the script API's
// declarations, in memory. The compiler is loaded on the first check (it is large and most requests never need it);
// the library declarations are parsed once and kept, so a check after the first parses and checks only the script.
// JavaScript gets its syntax errors only: it has no types to check.

type Ts = typeof TS;
type Part = contracts.CustomCodePart;

const SCRIPT_FILE = '/script.ts';
const API_FILE = '/script-api.d.ts';
/** The ECMAScript library only: the sandbox has no DOM, no Node, no timers. */
const LIB = 'lib.es2022.d.ts';
/** At most this many diagnostics answered: a pasted file of errors would otherwise flood the editor. */
const MAX_DIAGNOSTICS = 200;

let compiler: Promise<Ts> | undefined;
/** Parsed library and API files by name: immutable, shared by every check. */
const parsed = new Map<string, TS.SourceFile>();
/** One check at a time: a check is synchronous work on the event loop; two would only queue behind each other. */
let queue: Promise<unknown> = Promise.resolve();

function loadCompiler(): Promise<Ts> {
  compiler ??= import('typescript').then((module) => {
    const ts = ((module as { default?: Ts }).default ?? module) as Ts;
    // Messages in the product's first language (TypeScript ships a zh-CN catalogue).
    ts.validateLocaleAndSetLanguage('zh-cn', ts.sys);
    return ts;
  });
  return compiler;
}

const OPTIONS = (ts: Ts): TS.CompilerOptions => ({
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noImplicitAny: false,
  noEmit: true,
  types: [],
  lib: [LIB],
  skipLibCheck: true,
  allowJs: true,
  checkJs: false,
});

function libSource(ts: Ts, name: string): string | undefined {
  try {
    return readFileSync(path.join(path.dirname(ts.getDefaultLibFilePath({})), name), 'utf8');
  } catch {
    return undefined;
  }
}

function cachedFile(ts: Ts, name: string, text: () => string | undefined): TS.SourceFile | undefined {
  const known = parsed.get(name);
  if (known) return known;
  const source = text();
  if (source === undefined) return undefined;
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.ES2022, true);
  parsed.set(name, file);
  return file;
}

function host(ts: Ts, script: TS.SourceFile, part: Part): TS.CompilerHost {
  const apiName = part === 'form-browser' ? '/browser-api.d.ts' : API_FILE;
  const api = part === 'form-browser' ? BROWSER_SCRIPT_API_DTS : SERVER_SCRIPT_API_DTS;
  const fileOf = (name: string): TS.SourceFile | undefined => {
    if (name === script.fileName) return script;
    if (name === API_FILE || name === '/browser-api.d.ts') return name === apiName ? cachedFile(ts, name, () => api) : undefined;
    const base = path.basename(name);
    return base.startsWith('lib.') ? cachedFile(ts, `/lib/${base}`, () => libSource(ts, base)) : undefined;
  };
  return {
    getSourceFile: (name) => fileOf(name),
    getDefaultLibFileName: () => `/lib/${LIB}`,
    getDefaultLibLocation: () => '/lib',
    writeFile: () => undefined,
    getCurrentDirectory: () => '/',
    getDirectories: () => [],
    fileExists: (name) => fileOf(name) !== undefined,
    readFile: (name) => fileOf(name)?.text,
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
  };
}

function present(ts: Ts, list: readonly TS.Diagnostic[], script: TS.SourceFile): contracts.CodeDiagnostic[] {
  return list
    .filter((d) => d.file === script && d.start !== undefined)
    .slice(0, MAX_DIAGNOSTICS)
    .map((d) => {
      const { line, character } = script.getLineAndCharacterOfPosition(d.start!);
      return {
        line: line + 1,
        column: character + 1,
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
        severity: d.category === ts.DiagnosticCategory.Error ? 'error' : 'warning',
      } as const;
    });
}

/** The script's diagnostics: syntax for JavaScript, syntax and types (against the part's API) for TypeScript. */
export function checkScript(part: Part, language: contracts.CustomCodeLanguage, source: string): Promise<contracts.CodeDiagnostic[]> {
  const run = async () => {
    const ts = await loadCompiler();
    const fileName = language === 'ts' ? SCRIPT_FILE : '/script.js';
    const script = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true, language === 'ts' ? ts.ScriptKind.TS : ts.ScriptKind.JS);
    const apiName = part === 'form-browser' ? '/browser-api.d.ts' : API_FILE;
    const options = OPTIONS(ts);
    if (language === 'js') {
      const program = ts.createProgram({ rootNames: [fileName], options: { ...options, noLib: true, noResolve: true }, host: host(ts, script, part) });
      return present(ts, program.getSyntacticDiagnostics(script), script);
    }
    const program = ts.createProgram({ rootNames: [apiName, fileName], options, host: host(ts, script, part) });
    const syntax = program.getSyntacticDiagnostics(script);
    return present(ts, syntax.length ? syntax : program.getSemanticDiagnostics(script), script);
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

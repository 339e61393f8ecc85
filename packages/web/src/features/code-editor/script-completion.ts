import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { BROWSER_SCRIPT_API_DTS, SERVER_SCRIPT_API_DTS } from '@tritium/shared/script/script-api-types';
import type { CodePart } from './code-editor-api.ts';

// Completion from the script API's names (docs/decisions/0118): the members and types its declarations name, and
// the handlers a part may export. The declarations are read, not typed out again here, so they cannot drift apart.

const HANDLERS: Record<CodePart, string[]> = {
  'form-server': ['onLoad', 'onSubmit', 'actions', 'onListAction'],
  'form-browser': ['onLoad', 'afterLoad', 'onChange', 'validate', 'beforeSubmit', 'afterSubmit', 'buttons'],
  'app-api': ['actions'],
};

/** The names declared in a .d.ts text: types (interface, type) and members (`name(` or `name:`). */
export function declaredNames(dts: string): Completion[] {
  const found = new Map<string, Completion>();
  for (const m of dts.matchAll(/\b(?:interface|type)\s+([A-Za-z_$][\w$]*)/g)) found.set(m[1]!, { label: m[1]!, type: 'type' });
  for (const m of dts.matchAll(/^\s*([A-Za-z_$][\w$]*)\??\s*([(:])/gm)) {
    if (!found.has(m[1]!)) found.set(m[1]!, { label: m[1]!, type: m[2] === '(' ? 'method' : 'property' });
  }
  return [...found.values()];
}

export function scriptNames(part: CodePart): Completion[] {
  const dts = part === 'form-browser' ? BROWSER_SCRIPT_API_DTS : SERVER_SCRIPT_API_DTS;
  const handlers = HANDLERS[part].map((label): Completion => ({ label, type: 'function', boost: 1 }));
  const roots: Completion[] = part === 'form-browser' ? [{ label: 'form', type: 'variable' }] : [{ label: 'ctx', type: 'variable' }];
  return [...roots, ...handlers, ...declaredNames(dts)];
}

/** A CodeMirror completion source over the part's names: after a dot, or while a word is typed (or on Ctrl+Space). */
export function scriptCompletionSource(part: CodePart) {
  const options = scriptNames(part);
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[\w$]*/);
    if (!word) return null;
    const afterDot = word.from > 0 && context.state.sliceDoc(word.from - 1, word.from) === '.';
    if (word.from === word.to && !afterDot && !context.explicit) return null;
    return { from: word.from, options, validFor: /^[\w$]*$/ };
  };
}

/**
 * Completion for the formula editor: after `{` the fields (`{Code}`, `{Grid.Code}`, `{this.Code}`), elsewhere the
 * functions of the catalogue with their signature, description and example (GET /v1/formula/function/list).
 */
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';

export interface FormulaField {
  /** As written inside the braces: `Code`, `Grid.Code` or `this.Code`. */
  ref: string;
  label: string;
}

export interface FormulaFunctionHelp {
  name: string;
  signature: string;
  description: string;
  example: string;
  exampleResult: string;
  categoryName: string;
}

export function fieldCompletions(fields: readonly FormulaField[]): Completion[] {
  return fields.map((field) => ({ label: field.ref, detail: field.label, type: 'variable', apply: `${field.ref}}` }));
}

export function functionCompletions(functions: readonly FormulaFunctionHelp[]): Completion[] {
  return functions.map((fn) => ({
    label: fn.name,
    detail: fn.signature,
    type: 'function',
    section: fn.categoryName,
    info: `${fn.description}\n${fn.example} → ${fn.exampleResult}`,
    apply: `${fn.name}(`,
  }));
}

/** One source for both: fields inside an open brace, functions on a word. */
export function formulaCompletionSource(getFields: () => readonly FormulaField[], getFunctions: () => readonly FormulaFunctionHelp[]): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const brace = context.matchBefore(/\{[^{}]*$/);
    if (brace) {
      return { from: brace.from + 1, options: fieldCompletions(getFields()), validFor: /^[A-Za-z0-9_.\s]*$/ };
    }
    const word = context.matchBefore(/[A-Za-z][A-Za-z0-9_]*/);
    if (!word && !context.explicit) return null;
    return { from: word?.from ?? context.pos, options: functionCompletions(getFunctions()), validFor: /^[A-Za-z0-9_]*$/ };
  };
}

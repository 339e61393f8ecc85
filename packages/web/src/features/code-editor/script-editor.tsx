import { useMemo, useRef } from 'react';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { javascript } from '@codemirror/lang-javascript';
import { autocompletion } from '@codemirror/autocomplete';
import { linter, type Diagnostic } from '@codemirror/lint';
import type { CodeDiagnostic, CodeLanguage, CodePart } from './code-editor-api.ts';
import { scriptCompletionSource } from './script-completion.ts';

// The script editor (docs/decisions/0118): CodeMirror 6 with JavaScript/TypeScript highlighting, completion from the
// API's names, and the server's type check shown inline (debounced: the check runs when typing pauses).

export interface ScriptEditorProps {
  value: string;
  onChange: (value: string) => void;
  part: CodePart;
  language: CodeLanguage;
  ariaLabel: string;
  /** The server's diagnostics for a source; errors (no connection) leave the marks as they were. */
  check: (source: string) => Promise<CodeDiagnostic[]>;
  onDiagnostics?: (list: CodeDiagnostic[]) => void;
  readOnly?: boolean;
  /** A CSS height; by default the window's less the page above it. */
  height?: string;
}

/** How long typing must pause before the source is checked. */
export const CHECK_DELAY_MS = 700;

/** A diagnostic's line and column (1-based) as a range of the document: the rest of the word it points at. */
export function rangeOf(doc: EditorView['state']['doc'], d: CodeDiagnostic): { from: number; to: number } {
  const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
  const from = Math.min(line.from + Math.max(d.column - 1, 0), line.to);
  const word = /^[\w$]+/.exec(line.text.slice(from - line.from));
  return { from, to: Math.min(from + (word ? word[0].length : 1), line.to) };
}

export function ScriptEditor({ value, onChange, part, language, ariaLabel, check, onDiagnostics, readOnly, height = 'calc(100vh - 230px)' }: ScriptEditorProps) {
  const latest = useRef({ check, onDiagnostics });
  latest.current = { check, onDiagnostics };
  const extensions = useMemo(
    () => [
      javascript({ typescript: language === 'ts' }),
      autocompletion({ override: [scriptCompletionSource(part)] }),
      linter(
        async (view): Promise<Diagnostic[]> => {
          const list = await latest.current.check(view.state.doc.toString());
          latest.current.onDiagnostics?.(list);
          return list.map((d) => ({ ...rangeOf(view.state.doc, d), severity: d.severity, message: d.message }));
        },
        { delay: CHECK_DELAY_MS },
      ),
      EditorView.contentAttributes.of({ 'aria-label': ariaLabel }),
    ],
    [part, language, ariaLabel],
  );
  return <CodeMirror value={value} onChange={onChange} extensions={extensions} readOnly={readOnly} height={height} minHeight="320px" />;
}

import { useMemo, useRef, useState } from 'react';
import { Typography, theme } from 'antd';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { autocompletion } from '@codemirror/autocomplete';
import { linter, type Diagnostic } from '@codemirror/lint';
import { FORMULA_FUNCTIONS, FORMULA_CATEGORY_NAMES, parseFormula } from '@tritium/shared/formula/index';
import { isApiError } from '../../lib/api-error.ts';
import { formulaApi, useFormulaFunctions } from './formula-api.ts';
import { formulaCompletionSource, type FormulaField, type FormulaFunctionHelp } from './formula-completion.ts';

// The formula editor (docs/decisions/0016): CodeMirror with field and function completion, and errors marked where
// they are: the parser's at once, then the server's check against the published form (POST
// /v1/formula/expression/validate). Used for formula controls, default values, hide conditions, association data
// ranges and submit rules.

export interface FormulaProblem {
  message: string;
  start: number;
  end: number;
}

export interface FormulaEditorProps {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  fields: readonly FormulaField[];
  /** Validate on the server against this published form; without it only the syntax is checked here. */
  validateWith?: { schemaCode: string; table?: string; bindType?: 'decimal' | 'string' | 'datetime' | 'bool' };
  ariaLabel: string;
  placeholder?: string;
}

const BASIC_SETUP = { lineNumbers: false, foldGutter: false, highlightActiveLine: false, autocompletion: false } as const;

const LOCAL_FUNCTIONS: FormulaFunctionHelp[] = FORMULA_FUNCTIONS.map((fn) => ({ ...fn, categoryName: FORMULA_CATEGORY_NAMES[fn.category] }));

/** Problems of an expression: the parser's, else the server's (when a published form is named). */
export async function formulaProblems(expression: string, validateWith: FormulaEditorProps['validateWith']): Promise<FormulaProblem[]> {
  if (!expression.trim()) return [];
  const parsed = parseFormula(expression);
  if (parsed.errors.length) return parsed.errors;
  if (!validateWith) return [];
  try {
    return (await formulaApi.validate({ expression, ...validateWith })).errors;
  } catch (error) {
    // An unpublished form (240004) or no connection: the syntax check stands.
    if (isApiError(error)) return [];
    throw error;
  }
}

export function FormulaEditor({ id, value, onChange, fields, validateWith, ariaLabel, placeholder }: FormulaEditorProps) {
  const { token } = theme.useToken();
  const [used, setUsed] = useState(false);
  const functions = useFormulaFunctions(used);
  const [problems, setProblems] = useState<FormulaProblem[]>([]);
  const latest = useRef({ fields, functions: LOCAL_FUNCTIONS as readonly FormulaFunctionHelp[], validateWith });
  latest.current = { fields, functions: functions.data?.list ?? LOCAL_FUNCTIONS, validateWith };
  const extensions = useMemo(
    () => [
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': ariaLabel, ...(id ? { id } : {}) }),
      autocompletion({ override: [formulaCompletionSource(() => latest.current.fields, () => latest.current.functions)], activateOnTyping: true }),
      linter(
        async (view): Promise<Diagnostic[]> => {
          const text = view.state.doc.toString();
          const found = await formulaProblems(text, latest.current.validateWith);
          setProblems(found);
          const length = view.state.doc.length;
          return found.map((p) => ({ from: Math.min(p.start, length), to: Math.min(Math.max(p.end, p.start), length), severity: 'error', message: p.message }));
        },
        { delay: 400 },
      ),
    ],
    [ariaLabel, id],
  );
  return (
    <div onFocus={() => setUsed(true)}>
      <div style={{ border: `1px solid ${problems.length ? token.colorError : token.colorBorder}`, borderRadius: token.borderRadius, overflow: 'hidden' }}>
        <CodeMirror
          value={value}
          onChange={onChange}
          extensions={extensions}
          basicSetup={BASIC_SETUP}
          placeholder={placeholder}
          minHeight="34px"
          maxHeight="160px"
        />
      </div>
      {problems.map((problem, i) => (
        <Typography.Text key={i} type="danger" role="alert" style={{ display: 'block', fontSize: token.fontSizeSM }}>
          {problem.message}
        </Typography.Text>
      ))}
    </div>
  );
}

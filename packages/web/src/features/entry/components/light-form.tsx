import { useCallback, useMemo, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { theme, type FormInstance, type FormRule } from 'antd';

/**
 * The login home's forms without antd's Form (its store, async validator and label tooltip are about a tenth of the
 * sign-in page, docs/decisions/0084): the same rules (form-rules.ts), checked the way Form checks them — a field on
 * each change, every field on submit — and drawn as a vertical Form.Item is, from the theme's tokens. The other entry
 * forms (register, reset, bind) keep antd's Form.
 */

type Values<N extends string> = Record<N, string>;
type Errors<N extends string> = Partial<Record<N, string[]>>;

/** The failed rules' messages for `value`, as Form would show them (every rule is checked, in order). */
async function runRules(rules: readonly FormRule[], value: string, getFieldValue: (name: string) => unknown): Promise<string[]> {
  const messages = await Promise.all(
    rules.map(async (entry) => {
      const rule = typeof entry === 'function' ? entry({ getFieldValue } as Parameters<typeof entry>[0]) : entry;
      const empty = value === '' || (rule.whitespace === true && value.trim() === '');
      if (rule.required && empty) return String(rule.message ?? '');
      if (rule.validator) {
        try {
          await rule.validator(rule, value, () => undefined);
        } catch (error) {
          return error instanceof Error ? error.message : String(rule.message ?? error);
        }
      }
      return undefined;
    }),
  );
  return messages.filter((message): message is string => message !== undefined);
}

export interface LightForm<N extends string> {
  /** The input's id: `${formName}_${name}`, as antd's Form names it, so labels and links keep pointing at it. */
  id: (name: N) => string;
  value: (name: N) => string;
  errors: (name: N) => string[];
  /** Sets a field and checks it, as Form does on each change. */
  change: (name: N) => (event: ChangeEvent<HTMLInputElement>) => void;
  /** Checks the named fields (all by default); resolves with the values, or undefined when any field is wrong. */
  validateFields: (names?: readonly N[]) => Promise<Values<N> | undefined>;
  /** Puts messages on fields (a server's 777 answer, lib/apply-server-error.ts). */
  setFields: FormInstance['setFields'];
  /** The form element's submit: checks every field, then hands the values on. */
  onSubmit: (finish: (values: Values<N>) => void) => (event: FormEvent<HTMLFormElement>) => void;
}

export function useLightForm<N extends string>(formName: string, rules: Record<N, FormRule[]>): LightForm<N> {
  const names = Object.keys(rules) as N[];
  const [values, setValues] = useState<Values<N>>(() => Object.fromEntries(names.map((name) => [name, ''])) as Values<N>);
  const [errors, setErrors] = useState<Errors<N>>({});
  const current = useRef(values);
  const latestRules = useRef(rules);
  latestRules.current = rules;
  // Checks finish out of order while someone types: only the latest check of a field may set its messages.
  const checks = useRef<Partial<Record<N, number>>>({});

  const check = useCallback(async (name: N): Promise<string[]> => {
    const ticket = (checks.current[name] ?? 0) + 1;
    checks.current[name] = ticket;
    const messages = await runRules(latestRules.current[name], current.current[name], (field) => current.current[field as N]);
    if (checks.current[name] === ticket) setErrors((previous) => ({ ...previous, [name]: messages }));
    return messages;
  }, []);

  return useMemo<LightForm<N>>(
    () => ({
      id: (name) => `${formName}_${name}`,
      value: (name) => values[name],
      errors: (name) => errors[name] ?? [],
      change: (name) => (event) => {
        current.current = { ...current.current, [name]: event.target.value };
        setValues(current.current);
        void check(name);
      },
      validateFields: async (only) => {
        const results = await Promise.all((only ?? (Object.keys(latestRules.current) as N[])).map(check));
        return results.every((messages) => messages.length === 0) ? current.current : undefined;
      },
      setFields: (fields) =>
        setErrors((previous) => ({
          ...previous,
          ...Object.fromEntries(fields.map((field) => [String(Array.isArray(field.name) ? field.name[0] : field.name), field.errors ?? []])),
        })),
      onSubmit: (finish) => (event) => {
        event.preventDefault();
        void (async () => {
          const results = await Promise.all((Object.keys(latestRules.current) as N[]).map(check));
          if (results.every((messages) => messages.length === 0)) finish(current.current);
        })();
      },
    }),
    [formName, values, errors, check],
  );
}

/** What an input takes from the form: its id, value, change handler and error state (antd Input's `status`). */
export function inputProps<N extends string>(form: LightForm<N>, name: N) {
  const invalid = form.errors(name).length > 0;
  return {
    id: form.id(name),
    value: form.value(name),
    onChange: form.change(name),
    status: invalid ? ('error' as const) : undefined,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? `${form.id(name)}_help` : undefined,
  };
}

/**
 * One field as a vertical Form.Item draws it: the label above, the control, and below it the messages in the
 * space the item keeps beneath itself (so a message moves nothing).
 */
export function LightField<N extends string>({ form, name, label, children }: { form: LightForm<N>; name: N; label: string; children: ReactNode }) {
  const { token } = theme.useToken();
  const messages = form.errors(name);
  return (
    <div style={{ display: 'flex', flexDirection: 'column' }}>
      <div style={{ padding: `0 0 ${token.paddingXS}px`, lineHeight: token.lineHeight }}>
        <label htmlFor={form.id(name)} style={{ color: token.colorTextHeading, fontSize: token.fontSize }}>
          {label}
        </label>
      </div>
      <div style={{ display: 'flex', alignItems: 'center', minHeight: token.controlHeight }}>
        <div style={{ flex: 'auto', maxWidth: '100%' }}>{children}</div>
      </div>
      <div style={{ minHeight: token.marginLG, fontSize: token.fontSize, lineHeight: token.lineHeight }}>
        {/* antd's class names, unstyled here: what reads a field's message by them (browser scenarios) still finds it. */}
        {messages.length > 0 && (
          <div id={`${form.id(name)}_help`} role="alert" className="ant-form-item-explain" style={{ color: token.colorError }}>
            {messages.map((message) => (
              <div key={message} className="ant-form-item-explain-error">
                {message}
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

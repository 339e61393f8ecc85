import type { FormInstance } from 'antd';
import { getFieldIssues, isApiError } from './api-error.ts';

/** Where field messages go: antd's FormInstance, or the login home's light form (features/entry/components/light-form.tsx). */
export type FieldMessages = Pick<FormInstance, 'setFields'>;

/**
 * Puts a failed call's message where the person will see it: a 777 answer's issues on the fields they name
 * (ui.md: the server's answer wins), anything else as the form's message. Returns the form-level message,
 * or undefined when nothing is left to show (placed on fields, a system error already popped up, an abort).
 */
export function applyServerError(form: FieldMessages, error: unknown, fieldNames: readonly string[]): string | undefined {
  if (!isApiError(error)) return undefined;
  const issues = getFieldIssues(error);
  if (issues.length > 0) {
    const unplaced: string[] = [];
    const fields = new Map<string, string[]>();
    for (const issue of issues) {
      const field = issue.path.split('.')[0];
      if (fieldNames.includes(field)) fields.set(field, [...(fields.get(field) ?? []), issue.message]);
      else unplaced.push(issue.message);
    }
    form.setFields([...fields].map(([name, errors]) => ({ name, errors })));
    return unplaced.length > 0 ? unplaced.join('；') : undefined;
  }
  return error.errorType === 'BIZ' ? error.errorMessage : undefined;
}

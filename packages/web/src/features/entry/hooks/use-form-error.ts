import { useCallback, useRef, useState } from 'react';
import { applyServerError, type FieldMessages } from '../../../lib/apply-server-error.ts';

/** The form-level message of an entry form, filled from failed calls and cleared on the next attempt. */
export function useFormError(form: FieldMessages, fieldNames: readonly string[]) {
  const [formError, setFormError] = useState<string>();
  const fields = useRef(fieldNames);
  fields.current = fieldNames;
  const showError = useCallback((error: unknown) => setFormError(applyServerError(form, error, fields.current)), [form]);
  const clearError = useCallback(() => setFormError(undefined), []);
  return { formError, showError, clearError };
}

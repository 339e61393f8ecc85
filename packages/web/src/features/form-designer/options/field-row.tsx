/** The parts every option field is drawn with: its context, its element id, its problems and its labelled row. */
import type { ReactNode } from 'react';
import { Form } from 'antd';
import { pathKey, type OptionPath } from './schema-fields.ts';

export interface FieldContext {
  /** Prefix of element ids, unique on the page (the control's uid). */
  idPrefix: string;
  errors: Map<string, string[]>;
  onChange: (path: OptionPath, value: unknown) => void;
}

export const fieldId = (context: FieldContext, path: OptionPath) => `${context.idPrefix}-${path.join('-')}`;
export const errorsAt = (context: FieldContext, path: OptionPath) => context.errors.get(pathKey(path));

/** A labelled row with the field's own problems under it. */
export function FieldRow({ label, htmlFor, errors, extra, children }: { label: ReactNode; htmlFor?: string; errors?: string[]; extra?: ReactNode; children: ReactNode }) {
  return (
    <Form.Item label={label} htmlFor={htmlFor} validateStatus={errors ? 'error' : undefined} help={errors?.join('；')} extra={extra} style={{ marginBottom: 12 }}>
      {children}
    </Form.Item>
  );
}

import { useMemo } from 'react';
import { Alert } from 'antd';
import type { z } from 'zod';
import { zodErrorMap } from '../labels.ts';
import { FieldList, type FieldContext } from './option-field.tsx';
import { describeType, issuesByPath, setAtPath, type OptionField } from './schema-fields.ts';

interface OptionsEditorProps {
  /** The control type's options schema, from the registry. */
  schema: z.ZodType;
  value: Record<string, unknown>;
  onChange: (options: Record<string, unknown>) => void;
  idPrefix: string;
  /** Options another panel of the control edits (the rollup's source). */
  omit?: readonly string[];
}

/** Problems no field shows: about the options as a whole, or about an option this panel cannot edit. */
function unplacedProblems(errors: Map<string, string[]>, fields: OptionField[]): string[] {
  const shown = new Set(fields.filter((field) => field.type.kind !== 'unsupported').map((field) => field.key));
  return [...errors].filter(([key]) => !shown.has(key.split('.')[0])).flatMap(([, messages]) => messages);
}

/** Every option of a control, drawn from its type's options schema; checked with safeParse as it changes. */
export function OptionsEditor({ schema, value, onChange, idPrefix, omit }: OptionsEditorProps) {
  const fields = useMemo(() => {
    const type = describeType(schema);
    return type.kind === 'object' ? type.fields.filter((field) => !omit?.includes(field.key)) : [];
  }, [schema, omit]);
  const errors = useMemo(() => issuesByPath(schema, value, zodErrorMap()), [schema, value]);
  const context: FieldContext = { idPrefix, errors, onChange: (path, next) => onChange(setAtPath(value, path, next) as Record<string, unknown>) };
  const unplaced = unplacedProblems(errors, fields);
  return (
    <>
      {unplaced.length > 0 && <Alert type="error" showIcon message={unplaced.join('；')} style={{ marginBottom: 12 }} />}
      <FieldList fields={fields} value={value} path={[]} context={context} />
    </>
  );
}

/**
 * The generic option renderer: one field per key of a control type's options schema, chosen by what the
 * schema accepts (see schema-fields.ts). Labels come from the catalogue by key; problems from safeParse
 * show beside the field they are about.
 */
import type { ReactNode } from 'react';
import { Flex, Form, Select, Switch, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { optionLabel, valueLabel } from '../labels.ts';
import { LeafInput, isLeaf } from './leaf-input.tsx';
import { FormPicker } from './form-picker.tsx';
import { ItemsEditor, ObjectListEditor, RecordEditor } from './list-editors.tsx';
import { blankValue, pathKey, type FieldType, type OptionField, type OptionPath } from './schema-fields.ts';
import { SpecialOption, isSpecialOption } from '../dependent-options/special-option.tsx';

export interface FieldContext {
  /** Prefix of element ids, unique on the page (the control's uid). */
  idPrefix: string;
  errors: Map<string, string[]>;
  onChange: (path: OptionPath, value: unknown) => void;
}

interface OptionFieldProps {
  field: OptionField;
  value: unknown;
  path: OptionPath;
  /** The object holding the field: a list's default value chooses among its sibling items. */
  parent: Record<string, unknown>;
  context: FieldContext;
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

/** Nested objects are a fieldset; one that may be null has a switch that turns it on and off. */
function ObjectFieldset({ field, value, path, context, fields }: OptionFieldProps & { fields: OptionField[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const label = optionLabel(t, field.key);
  const object = value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  const errors = errorsAt(context, path);
  return (
    <fieldset
      style={{
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        padding: object || !field.nullable ? `${token.paddingXS}px ${token.paddingSM}px` : `0 ${token.paddingSM}px`,
        margin: `0 0 ${token.marginSM}px`,
      }}
    >
      <legend style={{ fontSize: token.fontSize, width: 'auto', margin: 0, padding: `0 ${token.paddingXXS}px`, border: 'none' }}>
        <Flex align="center" gap={token.paddingXS}>
          {label}
          {field.nullable && (
            <Switch
              size="small"
              aria-label={t('formDesigner.properties.enabled', { name: label })}
              checked={!!object}
              onChange={(on) => context.onChange(path, on ? blankValue(unwrapObject(field)) : null)}
            />
          )}
        </Flex>
      </legend>
      {errors && <Typography.Text type="danger">{errors.join('；')}</Typography.Text>}
      {(object || !field.nullable) && <FieldList fields={fields} value={object ?? {}} path={path} context={context} />}
    </fieldset>
  );
}

// blankValue of the nullable wrapper is null; switching on starts from the object inside.
const unwrapObject = (field: OptionField) => {
  let schema = field.schema;
  while (schema.def.innerType && schema.def.type !== 'object') schema = schema.def.innerType;
  return schema;
};

/** A union told apart by one key (a sequence-number part): choose the kind, then its own fields. */
export function VariantFieldset({ value, path, context, type }: { value: unknown; path: OptionPath; context: FieldContext; type: Extract<FieldType, { kind: 'variant' }> }) {
  const { t } = useTranslation();
  const object = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const current = type.variants.find((variant) => variant.value === object[type.discriminator]);
  const id = fieldId(context, [...path, type.discriminator]);
  return (
    <>
      <FieldRow label={optionLabel(t, type.discriminator)} htmlFor={id}>
        <Select
          id={id}
          value={current?.value}
          options={type.variants.map((variant) => ({ value: variant.value, label: valueLabel(t, variant.value) }))}
          onChange={(next) => context.onChange(path, blankValue(type.variants.find((variant) => variant.value === next)?.schema))}
          style={{ width: '100%' }}
        />
      </FieldRow>
      {current && <FieldList fields={current.fields} value={object} path={path} context={context} />}
    </>
  );
}

export function OptionFieldView(props: OptionFieldProps) {
  const { t } = useTranslation();
  const { field, value, path, parent, context } = props;
  const { type } = field;
  const label = optionLabel(t, field.key);
  // Formulas and data links have editors of their own (docs/decisions/0016).
  if (isSpecialOption(field.key, path)) return <SpecialOption fieldKey={field.key} value={value} path={path} parent={parent} context={context} />;
  // A list control's default value is one (or several) of its own items.
  const items = field.key === 'defaultValue' && Array.isArray(parent.defaultItems) ? (parent.defaultItems as unknown[]).filter((item): item is string => typeof item === 'string' && item !== '') : undefined;
  if (items) {
    const id = fieldId(context, path);
    const multiple = type.kind === 'list';
    return (
      <FieldRow label={label} htmlFor={id} errors={errorsAt(context, path)}>
        <LeafInput id={id} type={{ kind: 'choice', values: items }} choices={[...new Set(items)]} multiple={multiple} value={value} nullable={field.nullable} onChange={(next) => context.onChange(path, next)} />
      </FieldRow>
    );
  }
  // Another form (an association's target) is chosen by name, not typed as a code.
  if (field.key === 'schemaCode' && type.kind === 'string') {
    const id = fieldId(context, path);
    return (
      <FieldRow label={label} htmlFor={id} errors={errorsAt(context, path)}>
        <FormPicker id={id} value={value} onChange={(next) => context.onChange(path, next)} />
      </FieldRow>
    );
  }
  switch (type.kind) {
    case 'object':
      return <ObjectFieldset {...props} fields={type.fields} />;
    case 'variant':
      return <VariantFieldset {...props} type={type} />;
    case 'list':
      return isLeaf(type.item) ? <ItemsEditor {...props} label={label} type={type} /> : <ObjectListEditor {...props} label={label} type={type} />;
    case 'record':
      return <RecordEditor {...props} label={label} type={type} />;
    case 'unsupported':
      return null;
    default: {
      const id = fieldId(context, path);
      const errors = errorsAt(context, path);
      return (
        <FieldRow label={label} htmlFor={id} errors={errors}>
          <LeafInput id={id} type={type} value={value} nullable={field.nullable} hasError={!!errors} onChange={(next) => context.onChange(path, next)} />
        </FieldRow>
      );
    }
  }
}

/** The fields of one object, in the schema's order. */
export function FieldList({ fields, value, path, context }: { fields: OptionField[]; value: Record<string, unknown>; path: OptionPath; context: FieldContext }) {
  return (
    <>
      {fields.map((field) => (
        <OptionFieldView key={field.key} field={field} value={value[field.key]} path={[...path, field.key]} parent={value} context={context} />
      ))}
    </>
  );
}

/**
 * The generic option renderer: one field per key of a control type's options schema, chosen by what the
 * schema accepts (see schema-fields.ts). Labels come from the catalogue by key; problems from safeParse
 * show beside the field they are about.
 */
import { Button, Checkbox, Flex, Input, Select, Switch, Typography, theme } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { decimalPlacesOf } from '@tritium/shared/controls/index';
import { optionLabel, valueLabel } from '../labels.ts';
import { LeafInput, isLeaf } from './leaf-input.tsx';
import { FormPicker } from './form-picker.tsx';
import { blankValue, type FieldType, type OptionField, type OptionPath } from './schema-fields.ts';
import { SpecialOption, isSpecialOption } from '../dependent-options/special-option.tsx';
import { FieldRow, errorsAt, fieldId, type FieldContext } from './field-row.tsx';

// The row parts live in field-row.tsx (special options draw with them too); still answered here for existing callers.
export { FieldRow, errorsAt, fieldId, type FieldContext };

interface OptionFieldProps {
  field: OptionField;
  value: unknown;
  path: OptionPath;
  /** The object holding the field: a list's default value chooses among its sibling items. */
  parent: Record<string, unknown>;
  context: FieldContext;
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
  // 支持模糊搜索 (docs/decisions/0119): a checkbox that says what the index is for and that "contains" works without it.
  if (field.key === 'searchable' && type.kind === 'boolean') {
    const id = fieldId(context, path);
    return (
      <FieldRow label={label} htmlFor={id} errors={errorsAt(context, path)}>
        <Checkbox id={id} checked={value === true} onChange={(event) => context.onChange(path, event.target.checked)}>
          <Typography.Text type="secondary">{t('formDesigner.properties.searchableHint')}</Typography.Text>
        </Checkbox>
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
      // Decimal places left empty follow the show mode: the field says how many that is.
      const placeholder = field.key === 'decimalPlaces' && value === undefined ? t('formDesigner.properties.decimalPlacesDefault', { places: decimalPlacesOf(parent) }) : undefined;
      return (
        <FieldRow label={label} htmlFor={id} errors={errors}>
          <LeafInput id={id} type={type} value={value} nullable={field.nullable} hasError={!!errors} placeholder={placeholder} onChange={(next) => context.onChange(path, next)} />
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

// Lists and maps inside options: select items (≤ 200), lists of objects (sequence-number parts), code maps. They
// render their items with FieldList, which renders them: one file, so the recursion is not an import cycle.

interface EditorProps<K extends FieldType['kind']> {
  value: unknown;
  path: OptionPath;
  context: FieldContext;
  label: string;
  type: Extract<FieldType, { kind: K }>;
}

function AddButton({ label, disabled, onClick, count, max }: { label: string; disabled?: boolean; onClick: () => void; count: number; max?: number }) {
  const { t } = useTranslation();
  return (
    <Flex align="center" gap="small">
      <Button size="small" type="dashed" icon={<PlusOutlined />} aria-label={t('formDesigner.properties.addTo', { name: label })} disabled={disabled} onClick={onClick}>
        {t('formDesigner.properties.addItem')}
      </Button>
      {max !== undefined && <Typography.Text type="secondary">{t('formDesigner.properties.itemCount', { count, max })}</Typography.Text>}
    </Flex>
  );
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button type="text" size="small" aria-label={label} icon={<MinusCircleOutlined />} onClick={onClick} />;
}

/** A list of plain values (a list control's items): one input each, add and remove, up to the schema's maximum. */
export function ItemsEditor({ value, path, context, label, type }: EditorProps<'list'>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const isFull = type.maxItems !== undefined && items.length >= type.maxItems;
  const set = (next: unknown[]) => context.onChange(path, next);
  if (!isLeaf(type.item)) return null;
  const itemType = type.item;
  return (
    <FieldRow label={label} errors={errorsAt(context, path)}>
      <Flex vertical gap={token.paddingXXS}>
        {items.map((item, index) => {
          const name = t('formDesigner.properties.item', { name: label, index: index + 1 });
          const errors = errorsAt(context, [...path, index]);
          return (
            <Flex key={index} vertical>
              <Flex align="center" gap={token.paddingXXS}>
                <LeafInput
                  ariaLabel={name}
                  type={itemType}
                  value={item}
                  nullable={false}
                  hasError={!!errors}
                  onChange={(next) => set(items.map((old, i) => (i === index ? next : old)))}
                />
                <RemoveButton label={t('formDesigner.properties.removeItem', { name: label, index: index + 1 })} onClick={() => set(items.filter((_, i) => i !== index))} />
              </Flex>
              {errors && <Typography.Text type="danger">{errors.join('；')}</Typography.Text>}
            </Flex>
          );
        })}
        <AddButton label={label} disabled={isFull} count={items.length} max={type.maxItems} onClick={() => set([...items, blankValue(type.itemSchema)])} />
      </Flex>
    </FieldRow>
  );
}

/** A list of objects: each item a small fieldset of its own fields. */
export function ObjectListEditor({ value, path, context, label, type }: EditorProps<'list'>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const item = type.item;
  if (item.kind !== 'object' && item.kind !== 'variant') return null;
  const set = (next: unknown[]) => context.onChange(path, next);
  return (
    <FieldRow label={label} errors={errorsAt(context, path)}>
      <Flex vertical gap={token.paddingXS}>
        {items.map((entry, index) => (
          <div key={index} style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, padding: token.paddingXS }}>
            <Flex justify="space-between" align="center">
              <Typography.Text type="secondary">{t('formDesigner.properties.item', { name: label, index: index + 1 })}</Typography.Text>
              <RemoveButton label={t('formDesigner.properties.removeItem', { name: label, index: index + 1 })} onClick={() => set(items.filter((_, i) => i !== index))} />
            </Flex>
            {errorsAt(context, [...path, index]) && <Typography.Text type="danger">{errorsAt(context, [...path, index])!.join('；')}</Typography.Text>}
            {item.kind === 'object' ? (
              <FieldList fields={item.fields} value={(entry ?? {}) as Record<string, unknown>} path={[...path, index]} context={context} />
            ) : (
              <VariantFieldset value={entry} path={[...path, index]} context={context} type={item} />
            )}
          </div>
        ))}
        <AddButton label={label} disabled={type.maxItems !== undefined && items.length >= type.maxItems} count={items.length} max={type.maxItems} onClick={() => set([...items, blankValue(type.itemSchema)])} />
      </Flex>
    </FieldRow>
  );
}

/** A map of code to code (association fill) or item to colour: one row per entry. */
export function RecordEditor({ value, path, context, label, type }: EditorProps<'record'>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (!isLeaf(type.value)) return null;
  const valueType = type.value;
  const entries = Object.entries(value && typeof value === 'object' ? (value as Record<string, unknown>) : {});
  const set = (next: [string, unknown][]) => context.onChange(path, Object.fromEntries(next));
  const blank = blankValue(type.valueSchema);
  return (
    <FieldRow label={label} errors={errorsAt(context, path)}>
      <Flex vertical gap={token.paddingXXS}>
        {entries.map(([key, entryValue], index) => {
          const errors = errorsAt(context, [...path, key]);
          const name = t('formDesigner.properties.item', { name: label, index: index + 1 });
          return (
            <Flex key={index} vertical>
              <Flex align="center" gap={token.paddingXXS}>
                <Input
                  aria-label={name}
                  status={errors ? 'error' : undefined}
                  value={key}
                  onChange={(e) => set(entries.map((entry, i) => (i === index ? [e.target.value, entry[1]] : entry)))}
                />
                <LeafInput id={fieldId(context, [...path, index])} type={valueType} value={entryValue} nullable={false} onChange={(next) => set(entries.map((entry, i) => (i === index ? [entry[0], next] : entry)))} />
                <RemoveButton label={t('formDesigner.properties.removeItem', { name: label, index: index + 1 })} onClick={() => set(entries.filter((_, i) => i !== index))} />
              </Flex>
              {errors && <Typography.Text type="danger">{errors.join('；')}</Typography.Text>}
            </Flex>
          );
        })}
        <AddButton label={label} disabled={entries.some(([key]) => key === '')} count={entries.length} onClick={() => set([...entries, ['', blank]])} />
      </Flex>
    </FieldRow>
  );
}

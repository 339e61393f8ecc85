/** Lists and maps inside options: select items (≤ 200), lists of objects (sequence-number parts), code maps. */
import { Button, Flex, Input, Typography, theme } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LeafInput, isLeaf } from './leaf-input.tsx';
import { FieldList, FieldRow, VariantFieldset, errorsAt, fieldId, type FieldContext } from './option-field.tsx';
import { blankValue, type FieldType, type OptionPath } from './schema-fields.ts';

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

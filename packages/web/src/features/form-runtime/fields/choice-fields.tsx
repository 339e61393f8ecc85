/** Radio list, checkbox list and drop-down: the control's items, each in its colour (ItemColors, domain.md §3). */
import { Checkbox, Flex, Radio, Select, Tag, Typography } from 'antd';
import { STYLE_PALETTE } from '@tritium/shared/constants/formats';
import { EMPTY_TEXT, type AnyFieldKind, type DisplayProps, type FieldProps, type RuntimeControl } from './field-types.ts';

const itemsOf = (control: RuntimeControl) => (Array.isArray(control.options.defaultItems) ? control.options.defaultItems.map(String) : []);
const colorOf = (control: RuntimeControl, item: string): string | undefined => {
  const index = (control.options.itemColors as Record<string, number> | undefined)?.[item];
  return typeof index === 'number' ? STYLE_PALETTE[index] : undefined;
};
const chosen = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

function ItemLabel({ control, item }: { control: RuntimeControl; item: string }) {
  const color = colorOf(control, item);
  return color ? <Tag color={color} style={{ color: 'rgba(0,0,0,0.88)', marginInlineEnd: 0 }}>{item}</Tag> : <span>{item}</span>;
}

function ChoiceDisplay({ control, value, print }: DisplayProps<string | string[]>) {
  const items = chosen(value);
  if (items.length === 0) return <Typography.Text>{EMPTY_TEXT}</Typography.Text>;
  if (print) return <Typography.Text>{items.join('；')}</Typography.Text>;
  return (
    <Flex wrap gap={8}>
      {items.map((item) => (
        <ItemLabel key={item} control={control} item={item} />
      ))}
    </Flex>
  );
}

function RadioEdit({ control, value, onChange, id, disabled }: FieldProps<string>) {
  return (
    <Radio.Group id={id} value={value ?? undefined} disabled={disabled} onChange={(event) => onChange(event.target.value as string)}>
      <Flex wrap gap={8}>
        {itemsOf(control).map((item) => (
          <Radio key={item} value={item}>
            <ItemLabel control={control} item={item} />
          </Radio>
        ))}
      </Flex>
    </Radio.Group>
  );
}

function CheckboxListEdit({ control, value, onChange, id, disabled }: FieldProps<string[]>) {
  return (
    <Checkbox.Group aria-labelledby={id} value={chosen(value)} disabled={disabled} onChange={(next) => onChange(next.length ? (next as string[]) : null)}>
      <Flex wrap gap={8}>
        {itemsOf(control).map((item) => (
          <Checkbox key={item} value={item}>
            <ItemLabel control={control} item={item} />
          </Checkbox>
        ))}
      </Flex>
    </Checkbox.Group>
  );
}

function DropDownEdit({ control, value, onChange, id, invalid, disabled }: FieldProps<string>) {
  return (
    <Select
      id={id}
      style={{ width: '100%' }}
      allowClear
      showSearch
      value={value ?? undefined}
      status={invalid ? 'error' : undefined}
      disabled={disabled}
      options={itemsOf(control).map((item) => ({ value: item, label: <ItemLabel control={control} item={item} /> }))}
      optionFilterProp="value"
      onChange={(next) => onChange((next as string | undefined) ?? null)}
    />
  );
}

export const CHOICE_FIELDS = {
  radioList: { Edit: RadioEdit, Display: ChoiceDisplay },
  checkboxList: { Edit: CheckboxListEdit, Display: ChoiceDisplay },
  dropDown: { Edit: DropDownEdit, Display: ChoiceDisplay },
} satisfies Record<string, AnyFieldKind>;

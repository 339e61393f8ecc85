import { useState } from 'react';
import { Button, Flex, Tag } from 'antd';
import { ApartmentOutlined, CloseOutlined, UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { OrgPickerDialog } from './org-picker-dialog.tsx';
import type { MultiPickerProps, PickedUnit, PickerKind } from './picker-types.ts';

interface FieldProps extends Omit<MultiPickerProps, 'value' | 'onChange'> {
  kind: PickerKind;
  multiple: boolean;
  value: PickedUnit[];
  onChange: (units: PickedUnit[]) => void;
}

/**
 * The form field of every org picker: the chosen units as tags (each removable) and a button that opens the
 * dialog. The button carries the field's id, so a Form.Item label names it.
 */
export function OrgPickerField({ kind, multiple, value, onChange, id, disabled, placeholder, title, scope, defaultScope, max, ...aria }: FieldProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const isUser = kind === 'user';
  const buttonText = value.length ? (multiple ? t('orgPicker.change') : t('orgPicker.changeOne')) : (placeholder ?? (isUser ? t('orgPicker.chooseUser') : t('orgPicker.chooseDepartment')));
  return (
    <>
      <Flex align="center" gap="small" wrap>
        {value.map((unit) => (
          <Tag
            key={unit.id}
            style={{ marginInlineEnd: 0 }}
            closable={!disabled}
            closeIcon={<CloseOutlined aria-label={t('orgPicker.remove', { name: unit.name })} />}
            onClose={(event) => {
              event.preventDefault();
              onChange(value.filter((u) => u.id !== unit.id));
            }}
          >
            {unit.name}
          </Tag>
        ))}
        <Button
          id={id}
          aria-label={aria['aria-label']}
          size="small"
          disabled={disabled}
          icon={isUser ? <UserAddOutlined /> : <ApartmentOutlined />}
          onClick={() => setOpen(true)}
        >
          {buttonText}
        </Button>
      </Flex>
      <OrgPickerDialog
        open={open}
        kind={kind}
        multiple={multiple}
        value={value}
        scope={scope}
        defaultScope={defaultScope}
        max={max}
        title={title}
        onCancel={() => setOpen(false)}
        onOk={(units) => {
          setOpen(false);
          onChange(units);
        }}
      />
    </>
  );
}

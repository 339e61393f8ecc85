import { Button, Dropdown } from 'antd';
import { MoreOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export interface UnitMenuItem<K extends string> {
  key: K;
  label: string;
  disabled?: boolean;
  danger?: boolean;
  /** Draws a line above the item: destructive actions stand apart. */
  divided?: boolean;
}

interface UnitMenuProps<K extends string> {
  /** The unit's name: the button is announced as "<name> 的操作". */
  name: string;
  items: UnitMenuItem<K>[];
  onSelect: (key: K) => void;
}

/**
 * The ⋯ button beside a department, role group, role or post. It is a real button, so the keyboard reaches it, and
 * clicks on it do not select the row it sits in.
 */
export function UnitMenu<K extends string>({ name, items, onSelect }: UnitMenuProps<K>) {
  const { t } = useTranslation();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: items.flatMap((item) => [
          ...(item.divided ? [{ type: 'divider' as const }] : []),
          { key: item.key, label: item.label, disabled: item.disabled, danger: item.danger },
        ]),
        onClick: ({ key, domEvent }) => {
          domEvent.stopPropagation();
          onSelect(key as K);
        },
      }}
    >
      <Button
        type="text"
        size="small"
        icon={<MoreOutlined />}
        aria-label={t('orgAdmin.actionsOf', { name })}
        onClick={(event) => event.stopPropagation()}
      />
    </Dropdown>
  );
}

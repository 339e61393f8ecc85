import { Button, Flex, Typography, theme } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SelectedUnit } from './use-org-picker.ts';

interface SelectionProps {
  selection: SelectedUnit[];
  onRemove: (id: string) => void;
  onClear: () => void;
}

/** The right column of the dialog: what will be returned, each with its own remove button. */
export function PickerSelection({ selection, onRemove, onClear }: SelectionProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      style={{ width: 220, flex: 'none', borderInlineStart: `1px solid ${token.colorBorderSecondary}`, paddingInlineStart: token.padding }}
    >
      <Flex align="center" justify="space-between" style={{ marginBottom: token.marginXS }}>
        <Typography.Text strong>{t('orgPicker.selected', { count: selection.length })}</Typography.Text>
        <Button type="link" size="small" disabled={!selection.length} onClick={onClear}>
          {t('orgPicker.clear')}
        </Button>
      </Flex>
      {selection.length ? (
        <ul aria-label={t('orgPicker.selectedList')} style={{ listStyle: 'none', margin: 0, padding: 0, overflow: 'auto', flex: 1 }}>
          {selection.map((unit) => (
            <li key={unit.id}>
              <Flex align="center" justify="space-between" gap="small" style={{ padding: `${token.paddingXXS}px 0` }}>
                <Typography.Text ellipsis={{ tooltip: unit.name }}>{unit.name}</Typography.Text>
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  aria-label={t('orgPicker.remove', { name: unit.name })}
                  onClick={() => onRemove(unit.id)}
                />
              </Flex>
            </li>
          ))}
        </ul>
      ) : (
        <Typography.Text type="secondary">{t('orgPicker.noneSelected')}</Typography.Text>
      )}
    </Flex>
  );
}

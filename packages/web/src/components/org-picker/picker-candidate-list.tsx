import { Checkbox, Empty, Flex, Skeleton, Tag, Typography, theme } from 'antd';
import { ApartmentOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PickerCandidate, PickerKind } from './picker-types.ts';

interface CandidateListProps {
  /** Names the group for assistive technology and tests (搜索结果, 最近使用). */
  label: string;
  kind: PickerKind;
  /** Undefined while the first answer is on its way. */
  items: PickerCandidate[] | undefined;
  emptyText: string;
  isSelected: (id: string) => boolean;
  onToggle: (unit: PickerCandidate) => void;
}

/** One line per unit: a checkbox named by the unit, with what tells namesakes apart beside it. */
export function PickerCandidateList({ label, kind, items, emptyText, isSelected, onToggle }: CandidateListProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (!items) return <Skeleton active paragraph={{ rows: 4 }} title={false} />;
  if (!items.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  const Icon = kind === 'user' ? UserOutlined : ApartmentOutlined;
  return (
    <div role="group" aria-label={label} style={{ display: 'flex', flexDirection: 'column' }}>
      {items.map((item) => (
        <Checkbox
          key={item.id}
          checked={isSelected(item.id)}
          onChange={() => onToggle(item)}
          style={{ padding: `${token.paddingXXS}px ${token.paddingXS}px`, marginInlineStart: 0 }}
        >
          <Flex align="center" gap="small" wrap>
            <Icon aria-hidden style={{ color: token.colorTextTertiary }} />
            <span>{item.name}</span>
            {item.isExternal && <Tag style={{ marginInlineEnd: 0 }}>{t('orgPicker.external')}</Tag>}
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {[item.parentName, item.mobile].filter(Boolean).join(' · ')}
            </Typography.Text>
          </Flex>
        </Checkbox>
      ))}
    </div>
  );
}

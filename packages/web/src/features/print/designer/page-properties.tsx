import { Flex, InputNumber, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageSetup } from '@tritium/shared/print/index';

/** The paper (issue 24): A4, A5 or a custom size, its orientation and margins, in millimetres. */
export function PageProperties({ page, onChange }: { page: PageSetup; onChange(page: PageSetup): void }) {
  const { t } = useTranslation();
  const margin = (side: keyof PageSetup['margins']) => (
    <Flex vertical gap={2} style={{ flex: 1 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t(`print.designer.margins.${side}`)}</Typography.Text>
      <InputNumber size="small" aria-label={t(`print.designer.margins.${side}`)} min={0} max={100} value={page.margins[side]} onChange={(v) => onChange({ ...page, margins: { ...page.margins, [side]: Number(v ?? 0) } })} style={{ width: '100%' }} />
    </Flex>
  );
  return (
    <Flex vertical gap="small">
      <Typography.Text strong>{t('print.designer.paper')}</Typography.Text>
      <Select aria-label={t('print.designer.paper')} size="small" value={page.size}
        options={[{ value: 'A4', label: 'A4' }, { value: 'A5', label: 'A5' }, { value: 'custom', label: t('print.designer.custom') }]}
        onChange={(size) => onChange({ ...page, size, ...(size === 'custom' ? { width: page.width ?? 210, height: page.height ?? 140 } : {}) })} />
      {page.size === 'custom' && (
        <Flex gap="small">
          <InputNumber size="small" aria-label={t('print.designer.width')} addonAfter="mm" min={40} max={600} value={page.width} onChange={(v) => onChange({ ...page, width: Number(v ?? 210) })} />
          <InputNumber size="small" aria-label={t('print.designer.height')} addonAfter="mm" min={40} max={600} value={page.height} onChange={(v) => onChange({ ...page, height: Number(v ?? 140) })} />
        </Flex>
      )}
      <Radio.Group size="small" value={page.orientation} onChange={(e) => onChange({ ...page, orientation: e.target.value })}
        options={[{ value: 'portrait', label: t('print.designer.portrait') }, { value: 'landscape', label: t('print.designer.landscape') }]} />
      <Flex gap="small">{margin('top')}{margin('bottom')}</Flex>
      <Flex gap="small">{margin('left')}{margin('right')}</Flex>
    </Flex>
  );
}

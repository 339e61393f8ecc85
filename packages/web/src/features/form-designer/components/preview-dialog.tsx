import { useState } from 'react';
import { Flex, Modal, Segmented, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { PreviewCanvas } from '../canvas/preview-canvas.tsx';
import type { DesignerControl } from '../state/control-tree.ts';

// ui.md: the phone frame is 375px wide.
const PHONE_WIDTH = 375;

interface PreviewDialogProps {
  open: boolean;
  onClose: () => void;
  controls: DesignerControl[];
  titleWidth: number;
  /** The PC width: the runtime modal's width. */
  pcWidth: number;
}

/** 预览: the form read-only at PC width or at phone width, switchable. */
export function PreviewDialog({ open, onClose, controls, titleWidth, pcWidth }: PreviewDialogProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [device, setDevice] = useState<'pc' | 'phone'>('pc');
  const width = device === 'pc' ? pcWidth : PHONE_WIDTH;
  const frameLabel = device === 'pc' ? t('formDesigner.preview.pcFrame', { width: pcWidth }) : t('formDesigner.preview.phoneFrame');
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('formDesigner.preview.title')} width={Math.max(width, PHONE_WIDTH) + token.paddingLG * 2 + 48} destroyOnHidden>
      <Flex vertical gap="middle" align="center">
        <Segmented
          aria-label={t('formDesigner.preview.mode')}
          value={device}
          onChange={(value) => setDevice(value as 'pc' | 'phone')}
          options={[
            { value: 'pc', label: t('formDesigner.preview.pc') },
            { value: 'phone', label: t('formDesigner.preview.phone') },
          ]}
        />
        <section
          aria-label={frameLabel}
          style={{
            width,
            maxWidth: '100%',
            padding: token.padding,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: device === 'phone' ? token.borderRadiusLG * 2 : token.borderRadius,
            background: token.colorBgContainer,
            maxHeight: '70vh',
            overflow: 'auto',
          }}
        >
          <PreviewCanvas controls={controls} titleWidth={titleWidth} device={device} label={frameLabel} />
        </section>
      </Flex>
    </Modal>
  );
}

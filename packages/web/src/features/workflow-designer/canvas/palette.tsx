import { Button, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { PALETTE_TYPES, type PaletteType } from '../model/template-model.ts';
import { ActivityIcon, useTypeColour } from './activity-look.tsx';

/** The drag data type a palette item carries onto the canvas. */
export const PALETTE_DRAG_TYPE = 'application/x-tritium-activity';

function PaletteItem({ type, onAdd }: { type: PaletteType; onAdd: (type: PaletteType) => void }) {
  const { t } = useTranslation();
  const colour = useTypeColour(type);
  return (
    <Button
      block
      draggable
      style={{ justifyContent: 'flex-start' }}
      icon={<ActivityIcon type={type} style={{ color: colour }} />}
      onDragStart={(event) => {
        event.dataTransfer.setData(PALETTE_DRAG_TYPE, type);
        event.dataTransfer.effectAllowed = 'move';
      }}
      onClick={() => onAdd(type)}
      title={t(`workflowDesigner.typeHints.${type}`)}
    >
      {t(`workflowDesigner.types.${type}`)}
    </Button>
  );
}

/** The activities to drag onto the canvas; a click adds one after the selected node. */
export function Palette({ onAdd }: { onAdd: (type: PaletteType) => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical gap="small" style={{ padding: token.padding }} role="toolbar" aria-label={t('workflowDesigner.palette.title')}>
      <Typography.Text strong>{t('workflowDesigner.palette.title')}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
        {t('workflowDesigner.palette.hint')}
      </Typography.Text>
      {PALETTE_TYPES.map((type) => (
        <PaletteItem key={type} type={type} onAdd={onAdd} />
      ))}
    </Flex>
  );
}

import { Button, Flex, Typography, theme } from 'antd';
import { useDraggable } from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import { CONTROL_GROUPS, controlTypesInGroup, type AnyControlType } from '@tritium/shared/controls/index';
import { paletteDragId, pointerActivator, type DragItem } from '../canvas/drag-data.ts';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { controlGroupName, controlTypeName } from '../labels.ts';

function PaletteItem({ type }: { type: AnyControlType }) {
  const { addControl } = useDesignerContext();
  const data: DragItem = { source: 'palette', typeKey: type.key };
  const { setNodeRef, attributes, listeners, isDragging } = useDraggable({ id: paletteDragId(type.key), data });
  const name = controlTypeName(type.key);
  return (
    <Button
      ref={setNodeRef}
      {...attributes}
      // Pointer drags only: Enter and Space on a palette item add it (a click), they do not pick it up.
      onPointerDown={pointerActivator(listeners)}
      onClick={() => addControl(type.key)}
      block
      title={name}
      style={{ justifyContent: 'flex-start', touchAction: 'none', opacity: isDragging ? 0.5 : 1 }}
    >
      {/* Long names (关联表单多选) end in an ellipsis inside the button; the whole name is its tooltip. */}
      <span style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{name}</span>
    </Button>
  );
}

/** The left pane: every control type of the registry, in its palette groups (ui.md). */
export function Palette() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <nav aria-label={t('formDesigner.palette.label')} style={{ padding: token.padding, display: 'flex', flexDirection: 'column', gap: token.padding }}>
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
        {t('formDesigner.palette.hint')}
      </Typography.Text>
      {CONTROL_GROUPS.map((group) => {
        const headingId = `palette-group-${group}`;
        return (
          <section key={group} role="group" aria-labelledby={headingId}>
            <Typography.Title level={5} id={headingId} style={{ fontSize: token.fontSize, marginBottom: token.marginXS }}>
              {controlGroupName(group)}
            </Typography.Title>
            <Flex wrap gap={token.paddingXS} style={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' }}>
              {controlTypesInGroup(group).map((type) => (
                <PaletteItem key={type.key} type={type} />
              ))}
            </Flex>
          </section>
        );
      })}
    </nav>
  );
}

import { Button, Flex, Tag, Tooltip, theme } from 'antd';
import { DeleteOutlined, HolderOutlined, WarningOutlined } from '@ant-design/icons';
import { useDndContext, useDraggable, useDroppable } from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { controlName } from '../labels.ts';
import type { DesignerControl } from '../state/control-tree.ts';
import { isVisible, type ListKind } from './canvas-env.ts';
import { ControlView } from './control-view.tsx';
import { asDragItem, controlDragId, controlDropId, keyboardActivator, pointerActivator, type DragItem, type DropData } from './drag-data.ts';
import { useControlProblems } from './problems-context.ts';

interface ControlCardProps {
  control: DesignerControl;
  containerId: string;
  index: number;
  ancestors: string[];
  kind: ListKind;
}

/**
 * A control on the canvas: click to select it, drag it (anywhere on it, or by its handle from the keyboard)
 * to reorder or move it, or remove it. Dropping onto a card puts the dragged control in its place.
 */
/** A control that needs an outside service, with that service already chosen: a connector's button, an OCR control's template. */
function serviceChosen(control: { type: string; options: Record<string, unknown> }): boolean {
  if (control.type === 'advancedButton') return !!control.options.connectorCode;
  if (control.type === 'ocr') return !!control.options.templateCode;
  return false;
}

export function ControlCard({ control, containerId, index, ancestors, kind }: ControlCardProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { state, dispatch, requestRemove } = useDesignerContext();
  const hasProblems = useControlProblems().has(control.uid);
  const name = controlName(control);
  const dragItem: DragItem = { source: 'canvas', uid: control.uid };
  const drag = useDraggable({ id: controlDragId(control.uid), data: dragItem });
  const dropData: DropData = { containerId, index, ancestors };
  const drop = useDroppable({ id: controlDropId(control.uid), data: dropData });
  const { active } = useDndContext();
  const dragged = asDragItem(active?.data.current);
  const isSelected = state.selectedUid === control.uid;
  const isInsertPoint = drop.isOver && !(dragged?.source === 'canvas' && dragged.uid === control.uid);
  const insertShadow = kind === 'stack' ? `inset 0 3px 0 ${token.colorPrimary}` : `inset 3px 0 0 ${token.colorPrimary}`;

  return (
    <div
      ref={(node) => {
        drag.setNodeRef(node);
        drop.setNodeRef(node);
      }}
      role="listitem"
      aria-label={name}
      aria-current={isSelected || undefined}
      onPointerDown={pointerActivator(drag.listeners)}
      tabIndex={0}
      onClick={(event) => {
        event.stopPropagation();
        dispatch({ type: 'select', uid: control.uid });
      }}
      onKeyDown={(event) => {
        // Enter or Space on the card itself selects it; keys inside (the handle, a nested card) are theirs.
        if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
        event.preventDefault();
        dispatch({ type: 'select', uid: control.uid });
      }}
      style={{
        position: 'relative',
        flex: kind === 'columns' ? '0 0 180px' : undefined,
        minWidth: 0,
        padding: `${token.paddingSM}px ${token.paddingSM}px`,
        paddingTop: token.paddingLG,
        borderRadius: token.borderRadius,
        border: `1px solid ${isSelected ? token.colorPrimary : hasProblems ? token.colorError : token.colorBorderSecondary}`,
        background: isSelected ? token.colorPrimaryBg : token.colorBgContainer,
        boxShadow: isInsertPoint ? insertShadow : undefined,
        opacity: drag.isDragging ? 0.4 : isVisible(control) ? 1 : 0.6,
        cursor: 'pointer',
        touchAction: 'none',
      }}
    >
      <Flex align="center" gap={token.paddingXXS} style={{ position: 'absolute', top: 2, insetInlineEnd: 4 }}>
        {hasProblems && (
          <Tooltip title={t('formDesigner.canvas.hasProblems')}>
            <WarningOutlined aria-label={t('formDesigner.canvas.hasProblems')} style={{ color: token.colorError }} />
          </Tooltip>
        )}
        {!isVisible(control) && <Tag style={{ marginInlineEnd: 0 }}>{t('formDesigner.canvas.hidden')}</Tag>}
        {controlTypeByKey(control.type).service && !serviceChosen(control) && (
          <Tooltip title={t('formDesigner.canvas.needsServiceHint')}>
            <Tag color="warning" style={{ marginInlineEnd: 0 }}>
              {t('formDesigner.canvas.needsService')}
            </Tag>
          </Tooltip>
        )}
        <Tag variant="filled" style={{ marginInlineEnd: 0, color: token.colorTextTertiary }}>
          {control.code}
        </Tag>
        <Button
          ref={drag.setActivatorNodeRef}
          type="text"
          size="small"
          aria-label={t('formDesigner.canvas.drag', { name })}
          icon={<HolderOutlined />}
          style={{ cursor: 'grab', color: token.colorTextTertiary }}
          {...drag.attributes}
          onKeyDown={keyboardActivator(drag.listeners)}
        />
        <Button
          type="text"
          size="small"
          danger
          aria-label={t('formDesigner.canvas.remove', { name })}
          icon={<DeleteOutlined />}
          onClick={(event) => {
            event.stopPropagation();
            requestRemove(control);
          }}
        />
      </Flex>
      <ControlView control={control} ancestors={ancestors} title={kind === 'stack' ? 'beside' : 'above'} />
    </div>
  );
}

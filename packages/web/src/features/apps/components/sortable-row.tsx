import type { CSSProperties, ReactNode } from 'react';
import { Button, theme } from 'antd';
import { HolderOutlined } from '@ant-design/icons';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';

interface SortableRowProps {
  id: string;
  /** Names the drag handle for assistive technology and tests ("拖动 X"). */
  handleLabel: string;
  /** No handle (the person may not reorder). */
  disabled?: boolean;
  /** Highlighted as a drop target. */
  highlighted?: boolean;
  style?: CSSProperties;
  children: ReactNode;
}

/** A row of a sortable list (apps, nodes of a tree) with a drag handle at its left. */
export function SortableRow({ id, handleLabel, disabled, highlighted, style, children }: SortableRowProps) {
  const { token } = theme.useToken();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled });
  return (
    <div
      ref={setNodeRef}
      style={{
        display: 'flex',
        alignItems: 'center',
        transform: CSS.Translate.toString(transform),
        transition,
        opacity: isDragging ? 0.5 : 1,
        borderRadius: token.borderRadius,
        outline: highlighted ? `2px dashed ${token.colorPrimary}` : undefined,
        background: highlighted ? token.colorPrimaryBg : undefined,
        ...style,
      }}
    >
      {!disabled && (
        <Button
          ref={setActivatorNodeRef}
          type="text"
          size="small"
          aria-label={handleLabel}
          icon={<HolderOutlined />}
          style={{ cursor: 'grab', color: token.colorTextTertiary, touchAction: 'none' }}
          {...attributes}
          {...listeners}
        />
      )}
      {children}
    </div>
  );
}

import type { CSSProperties } from 'react';
import { Typography, theme } from 'antd';
import { useDndContext, useDroppable } from '@dnd-kit/core';
import { useDesignerContext } from '../hooks/designer-context.ts';
import type { ListArgs } from './canvas-env.ts';
import { ControlCard } from './control-card.tsx';
import { asDragItem, asDropData, checkDrop, zoneDropId, type DropData } from './drag-data.ts';

function listStyle(args: ListArgs, gap: number): CSSProperties {
  if (args.kind === 'columns') return { display: 'flex', flexDirection: 'row', gap, overflowX: 'auto' };
  if (args.kind === 'grid') return { display: 'grid', gridTemplateColumns: `repeat(${args.columns ?? 2}, minmax(0, 1fr))`, gap };
  return { display: 'flex', flexDirection: 'column', gap };
}

/**
 * A list of controls on the designer's canvas and the drop target around it. While something is dragged
 * every zone is outlined; the one under the pointer is highlighted, in the error colour when it would refuse.
 */
export function DropZone(args: ListArgs) {
  const { token } = theme.useToken();
  const { state } = useDesignerContext();
  const data: DropData = { containerId: args.containerId, ancestors: args.ancestors };
  const { setNodeRef, isOver } = useDroppable({ id: zoneDropId(args.containerId), data });
  const { active, over } = useDndContext();
  const item = asDragItem(active?.data.current);
  const isTarget = !!item && (isOver || asDropData(over?.data.current)?.containerId === args.containerId);
  const isRefused = isTarget && checkDrop(state.controls, item, args.containerId) !== 'success';
  const outline = isRefused ? token.colorError : isTarget ? token.colorPrimary : item ? token.colorBorder : token.colorBorderSecondary;
  const isEmpty = args.controls.length === 0;
  return (
    <div
      ref={setNodeRef}
      role="list"
      aria-label={args.label}
      style={{
        ...listStyle(args, token.paddingXS),
        minHeight: args.containerId === 'root' ? 160 : 56,
        padding: token.paddingXS,
        paddingBottom: item ? token.paddingLG : token.paddingXS,
        borderRadius: token.borderRadius,
        outline: `1px dashed ${outline}`,
        background: isRefused ? token.colorErrorBg : isTarget ? token.colorPrimaryBg : undefined,
        transition: 'background 0.15s',
      }}
    >
      {args.controls.map((control, index) => (
        <ControlCard key={control.uid} control={control} containerId={args.containerId} index={index} ancestors={args.ancestors} kind={args.kind} />
      ))}
      {isEmpty && (
        <Typography.Text type="secondary" style={{ alignSelf: 'center', padding: token.paddingSM, gridColumn: '1 / -1', textAlign: 'center' }}>
          {args.emptyText}
        </Typography.Text>
      )}
    </div>
  );
}

import { useCallback, useState, type ReactNode } from 'react';
import { Button } from 'antd';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { controlName, controlTypeName } from '../labels.ts';
import { locateControl } from '../state/control-tree.ts';
import { useDragAccessibility } from '../../../lib/use-drag-accessibility.ts';

const noTargetNames = () => undefined;
import { asDragItem, asDropData, controlDropId, type DragItem } from './drag-data.ts';

/**
 * The innermost target under the pointer: a card inside a sub-table wins over the sub-table's zone, which
 * wins over the form's. Targets inside the dragged control are never offered.
 */
export const innermostTarget: CollisionDetection = (args) => {
  const dragged = asDragItem(args.active.data.current);
  const draggedUid = dragged?.source === 'canvas' ? dragged.uid : undefined;
  const usable = args.droppableContainers.filter((container) => !draggedUid || !asDropData(container.data.current)?.ancestors.includes(draggedUid));
  const scoped = { ...args, droppableContainers: usable };
  const hits = pointerWithin(scoped);
  const list = hits.length > 0 ? hits : rectIntersection(scoped);
  const area = (id: string | number) => {
    const rect = args.droppableRects.get(id);
    return rect ? rect.width * rect.height : Number.POSITIVE_INFINITY;
  };
  return [...list].sort((a, b) => area(a.id) - area(b.id));
};

/** Drag and drop for the palette and the canvas: pointer (after 4px, so clicks stay clicks) and keyboard. */
export function DesignerDnd({ children }: { children: ReactNode }) {
  const { state, addControl, moveControl } = useDesignerContext();
  const [dragging, setDragging] = useState<DragItem>();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor));

  const handleDragStart = ({ active }: DragStartEvent) => setDragging(asDragItem(active.data.current));
  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(undefined);
    const item = asDragItem(active.data.current);
    const target = asDropData(over?.data.current);
    if (!item || !target || !over) return;
    if (item.source === 'palette') {
      addControl(item.typeKey, { containerId: target.containerId, index: target.index });
      return;
    }
    if (over.id === controlDropId(item.uid)) return;
    moveControl(item.uid, { containerId: target.containerId, index: target.index });
  };

  const overlayName = !dragging
    ? undefined
    : dragging.source === 'palette'
      ? controlTypeName(dragging.typeKey)
      : (() => {
          const location = locateControl(state.controls, dragging.uid);
          return location ? controlName(location.control) : undefined;
        })();
  // The dragged control's name once the drag is under way; drop targets are named generically.
  const accessibility = useDragAccessibility(useCallback(() => overlayName, [overlayName]), noTargetNames);

  return (
    <DndContext
      accessibility={accessibility}
      sensors={sensors}
      collisionDetection={innermostTarget}
      onDragStart={handleDragStart}
      onDragEnd={handleDragEnd}
      onDragCancel={() => setDragging(undefined)}
    >
      {children}
      <DragOverlay dropAnimation={null}>{overlayName ? <Button type="primary">{overlayName}</Button> : null}</DragOverlay>
    </DndContext>
  );
}

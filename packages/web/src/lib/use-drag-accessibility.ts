import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from '@dnd-kit/core';

/**
 * What screen readers hear while something is dragged, in the interface's language: dnd-kit's own announcements are
 * English ("Draggable item … was dropped over droppable area …"). `nameOf` names a dragged item or a target by its id
 * (a display name, never the id itself), `targetOf` a place it is dropped on (the same by default); an item it does not know is "所选项", a target "目标位置".
 */
type Namer = (id: UniqueIdentifier) => string | undefined;

export function useDragAccessibility(nameOf?: Namer, targetOf: Namer | undefined = nameOf): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  const { t } = useTranslation();
  return useMemo(() => {
    const name = (id: UniqueIdentifier | undefined) => (id !== undefined ? nameOf?.(id) : undefined) ?? t('dragDrop.item');
    const target = (id: UniqueIdentifier) => targetOf?.(id) ?? t('dragDrop.target');
    return {
      screenReaderInstructions: { draggable: t('dragDrop.instructions') },
      announcements: {
        onDragStart: ({ active }) => t('dragDrop.start', { name: name(active.id) }),
        onDragOver: ({ active, over }) => (over ? t('dragDrop.over', { name: name(active.id), target: target(over.id) }) : t('dragDrop.outside', { name: name(active.id) })),
        onDragEnd: ({ active, over }) => (over ? t('dragDrop.end', { name: name(active.id), target: target(over.id) }) : t('dragDrop.endOutside', { name: name(active.id) })),
        onDragCancel: ({ active }) => t('dragDrop.cancel', { name: name(active.id) }),
      },
    };
  }, [t, nameOf, targetOf]);
}

import { useEffect, useMemo, useState } from 'react';
import { App, Empty, Flex, Spin, Typography, theme } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DndContext, MouseSensor, TouchSensor, useSensor, useSensors, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { useDragAccessibility } from '../../../../lib/use-drag-accessibility.ts';
import { kanbanMode, settingsOf } from '@tritium/shared/view-modes/index';
import { runtimeKeys } from '../../../form-runtime/api/runtime-api.ts';
import { NamesProvider, useDisplayContext } from '../../../form-runtime/model/names.tsx';
import { listViewApi, type KanbanBoard as Board } from '../../api/list-view-api.ts';
import { cellText, controlsByCode, unitIdsOf } from '../../model/cells.ts';
import { useIsPhone } from '../../../../lib/use-is-phone.ts';
import { saveMove } from '../save-move.ts';
import type { ModeRuntimeProps, Row } from '../types.ts';
import { KanbanColumnView, columnKey, type ColumnState } from './kanban-column.tsx';

// The kanban board (view mode 8; docs/decisions/0047): one column per value of the group field with its count (one
// GROUP BY on the server, through the viewer's scope) and its first cards; "load more" per column; a card dragged to
// another column saves the record's group field through the form runtime. A refusal (rules, permissions) shows its
// message and the card springs back to where it was.

export function KanbanBoard(props: ModeRuntimeProps) {
  const board = useQuery({
    queryKey: [...runtimeKeys.records(props.schemaCode), 'kanban', props.narrowing],
    queryFn: () => listViewApi.kanban(props.narrowing),
  });
  const cards = board.data?.columns.flatMap((c) => c.list) ?? [];
  if (!board.data) return board.isError ? <Empty /> : <Spin />;
  return (
    <NamesProvider request={{ unitIds: unitIdsOf(cards, props.fields), objects: [] }}>
      <BoardColumns {...props} board={board.data} />
    </NamesProvider>
  );
}

function BoardColumns({ board, ...props }: ModeRuntimeProps & { board: Board }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const isPhone = useIsPhone();
  const queryClient = useQueryClient();
  const context = useDisplayContext();
  const settings = settingsOf(kanbanMode, props.view.settings);
  const controls = useMemo(() => controlsByCode(props.definition), [props.definition]);
  const [columns, setColumns] = useState<ColumnState[]>([]);
  useEffect(() => setColumns(board.columns.map((c) => ({ ...c, list: c.list as Row[] }))), [board]);
  // A mouse drags after a few pixels; a finger after a short press, so a swipe still scrolls the columns.
  const sensors = useSensors(useSensor(MouseSensor, { activationConstraint: { distance: 6 } }), useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 6 } }));
  const groupField = props.fields.find((f) => f.code === board.groupField);
  // The data status is the flow's to change: a board by status shows its columns without dragging.
  const draggable = !!groupField && board.groupField !== 'Status' && groupField.controlType !== 'status';
  const titleOf = (value: ColumnState['value']) =>
    value === null ? t('viewModes.kanban.none') : groupField ? cellText(groupField, value, controls, context) || String(value) : String(value);

  const nameOf = (id: UniqueIdentifier) => {
    const column = columns.find((c) => columnKey(c.value) === id);
    if (column) return titleOf(column.value);
    const card = columns.flatMap((c) => c.list).find((r) => r.ObjectId === id);
    return card ? String(card.Name ?? '') || undefined : undefined;
  };
  const accessibility = useDragAccessibility(nameOf);

  const loadMore = async (column: ColumnState) => {
    const page = await listViewApi.kanbanColumn({ ...props.narrowing, value: column.value, pageIndex: Math.ceil(column.list.length / settings.pageSize) });
    setColumns((list) => list.map((c) => (columnKey(c.value) === columnKey(column.value) ? { ...c, list: [...c.list, ...(page.list as Row[]).filter((r) => !c.list.some((x) => x.ObjectId === r.ObjectId))], hasMore: page.hasMore } : c)));
  };

  const onDragEnd = async (event: DragEndEvent) => {
    const from = event.active.data.current?.column as string | undefined;
    const to = event.over?.id as string | undefined;
    if (!to || !from || to === from) return;
    const before = columns;
    const source = before.find((c) => columnKey(c.value) === from)!;
    const target = before.find((c) => columnKey(c.value) === to)!;
    const card = source.list.find((r) => r.ObjectId === event.active.id)!;
    const moved = { ...card, [board.groupField]: target.value };
    // Shown in the new column at once; put back when the save is refused.
    setColumns(before.map((c) => {
      if (c === source) return { ...c, count: c.count - 1, list: c.list.filter((r) => r !== card) };
      if (c === target) return { ...c, count: c.count + 1, list: [moved, ...c.list] };
      return c;
    }));
    const outcome = await saveMove(props.schemaCode, card.ObjectId, { [board.groupField]: target.value });
    if (!outcome.ok) {
      setColumns(before);
      void message.error(t('viewModes.kanban.refused', { reason: outcome.message }));
      return;
    }
    void message.success(t('viewModes.kanban.moved', { column: titleOf(target.value) }));
    void queryClient.invalidateQueries({ queryKey: runtimeKeys.records(props.schemaCode) });
  };

  return (
    <Flex vertical gap="small">
      <DndContext sensors={sensors} onDragEnd={(e) => void onDragEnd(e)} accessibility={accessibility}>
        <div role="region" aria-label={t('viewModes.kanban.board')}
          style={{ display: 'flex', gap: token.marginSM, overflowX: 'auto', alignItems: 'flex-start', paddingBottom: token.paddingXS, scrollSnapType: isPhone ? 'x mandatory' : undefined, minHeight: Math.min(props.height, 480) }}>
          {columns.map((column) => (
            <KanbanColumnView key={columnKey(column.value)} column={column} title={titleOf(column.value)} settings={settings} fields={props.fields} controls={controls}
              draggable={draggable} width={isPhone ? '85vw' : 280} maxHeight={props.height}
              canAdd={props.canCreate && draggable} onAdd={() => props.onCreate({ [board.groupField]: column.value })}
              onMore={() => void loadMore(column)} onOpen={props.onOpen} />
          ))}
        </div>
      </DndContext>
      {board.columnsLeftOut > 0 && <Typography.Text type="secondary">{t('viewModes.kanban.leftOut', { count: board.columnsLeftOut })}</Typography.Text>}
    </Flex>
  );
}

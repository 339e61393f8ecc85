import { Button, Card, Flex, Tag, Typography, theme } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useDraggable, useDroppable } from '@dnd-kit/core';
import { EMPTY_VALUE_DISPLAY } from '@tritium/shared/constants/formats';
import type { KanbanSettings } from '@tritium/shared/view-modes/index';
import { useDisplayContext } from '../../../form-runtime/model/names.tsx';
import { cellText, type controlsByCode } from '../../model/cells.ts';
import type { Row, ViewFieldInfo } from '../types.ts';

// One column of the kanban board: its title and count, its cards (each draggable to another column), the add button
// that opens a new record with the column's value, and "load more".

export interface ColumnState {
  value: string | number | null;
  count: number;
  list: Row[];
  hasMore: boolean;
}

/** A column's id for dragging: its value as JSON (null is the column of records without one). */
export const columnKey = (value: ColumnState['value']) => JSON.stringify(value);

interface Props {
  column: ColumnState;
  title: string;
  settings: KanbanSettings;
  fields: ViewFieldInfo[];
  controls: ReturnType<typeof controlsByCode>;
  draggable: boolean;
  width: number | string;
  maxHeight: number;
  canAdd: boolean;
  onAdd: () => void;
  onMore: () => void;
  onOpen: (row: Row) => void;
}

export function KanbanColumnView({ column, title, settings, fields, controls, draggable, width, maxHeight, canAdd, onAdd, onMore, onOpen }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { setNodeRef, isOver } = useDroppable({ id: columnKey(column.value) });
  return (
    <section ref={setNodeRef} aria-label={title}
      style={{ flex: 'none', width, scrollSnapAlign: 'start', background: isOver ? token.colorPrimaryBg : token.colorFillQuaternary, borderRadius: token.borderRadiusLG, padding: token.paddingXS, display: 'flex', flexDirection: 'column', gap: token.marginXS, maxHeight, }}>
      <Flex align="center" gap="small" style={{ padding: `2px ${token.paddingXXS}px` }}>
        <Typography.Text strong ellipsis style={{ minWidth: 0 }}>{title}</Typography.Text>
        <Tag bordered={false} aria-label={t('viewModes.kanban.count', { count: column.count })}>{column.count}</Tag>
        <div style={{ flex: 1 }} />
        {canAdd && <Button size="small" type="text" icon={<PlusOutlined />} aria-label={t('viewModes.kanban.add', { column: title })} onClick={onAdd} />}
      </Flex>
      <Flex vertical gap={token.marginXS} style={{ overflowY: 'auto', minHeight: 48 }}>
        {column.list.map((row) => (
          <KanbanCard key={row.ObjectId} row={row} column={columnKey(column.value)} settings={settings} fields={fields} controls={controls} draggable={draggable} onOpen={onOpen} />
        ))}
        {!column.list.length && <Typography.Text type="secondary" style={{ textAlign: 'center', padding: token.paddingSM }}>{t('viewModes.kanban.empty')}</Typography.Text>}
      </Flex>
      {column.hasMore && <Button size="small" type="link" onClick={onMore}>{t('viewModes.kanban.more', { shown: column.list.length, total: column.count })}</Button>}
    </section>
  );
}

function KanbanCard({ row, column, settings, fields, controls, draggable, onOpen }: { row: Row; column: string; settings: KanbanSettings; fields: ViewFieldInfo[]; controls: Props['controls']; draggable: boolean; onOpen: (row: Row) => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const context = useDisplayContext();
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: row.ObjectId, data: { column }, disabled: !draggable });
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const text = (code: string) => {
    const field = byCode.get(code);
    return field ? cellText(field, row[code], controls, context) : String(row[code] ?? '');
  };
  const title = text(settings.titleField) || String(row.Name ?? '') || t('viewModes.card.untitled');
  return (
    <Card ref={setNodeRef} size="small" hoverable aria-label={title} {...attributes} {...listeners} onClick={() => onOpen(row)}
      style={{ transform: transform ? `translate(${transform.x}px, ${transform.y}px)` : undefined, zIndex: isDragging ? 10 : undefined, boxShadow: isDragging ? token.boxShadow : undefined, cursor: draggable ? 'grab' : 'pointer' }}
      styles={{ body: { padding: token.paddingXS } }}>
      <Typography.Text strong ellipsis={{ tooltip: title }} style={{ display: 'block' }}>{title}</Typography.Text>
      {settings.fields.filter((code) => byCode.has(code)).map((code) => (
        <Flex key={code} gap={4} style={{ fontSize: token.fontSizeSM, minWidth: 0 }}>
          <Typography.Text type="secondary" style={{ flex: 'none' }}>{byCode.get(code)!.title}</Typography.Text>
          <Typography.Text ellipsis style={{ minWidth: 0 }}>{text(code) || EMPTY_VALUE_DISPLAY}</Typography.Text>
        </Flex>
      ))}
    </Card>
  );
}

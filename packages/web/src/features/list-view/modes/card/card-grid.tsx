import { useMemo } from 'react';
import { Card, Empty, Flex, Pagination, Spin, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { ViewMode, PAGE_SIZE_OPTIONS } from '@tritium/shared/constants/views';
import { EMPTY_VALUE_DISPLAY } from '@tritium/shared/constants/formats';
import { cardMode, mobileGridMode, settingsOf } from '@tritium/shared/view-modes/index';
import type { FileRef } from '@tritium/shared/controls/values';
import { useFileUrls } from '../../../form-runtime/api/upload.ts';
import { NamesProvider, useDisplayContext } from '../../../form-runtime/model/names.tsx';
import { cellText, controlsByCode, unitIdsOf } from '../../model/cells.ts';
import type { ModeRuntimeProps, Row, ViewFieldInfo } from '../types.ts';

// Card (7) and MobileGrid (9) (docs/decisions/0047): the list's page of records as cards — a cover from an
// attachment or photo field, the title and the chosen fields — or as the phone's two-column tiles.

interface CardShape {
  titleField: string;
  fields: string[];
  coverField?: string;
}

function shapeOf(props: ModeRuntimeProps, tiles: boolean): CardShape {
  const settings = props.view.settings ?? {};
  const own = props.view.mode === (tiles ? ViewMode.MobileGrid : ViewMode.Card);
  // Shown as cards from another mode's view: its first column is the title, the next ones the fields.
  if (!own) {
    const [first, ...rest] = props.fields;
    return { titleField: first?.code ?? 'Name', fields: rest.slice(0, tiles ? 3 : 5).map((f) => f.code) };
  }
  return tiles ? settingsOf(mobileGridMode, settings) : settingsOf(cardMode, settings);
}

const firstImage = (value: unknown): FileRef | undefined => (Array.isArray(value) ? (value as FileRef[]).find((f) => f?.contentType?.startsWith('image/')) : undefined);

export function CardGrid(props: ModeRuntimeProps) {
  const tiles = props.view.mode === ViewMode.MobileGrid || (props.view.mode !== ViewMode.Card && props.shownAs === ViewMode.MobileGrid);
  const shape = shapeOf(props, tiles);
  const rows = props.page?.rows ?? [];
  return (
    <NamesProvider request={{ unitIds: unitIdsOf(rows, props.fields), objects: [] }}>
      <CardList {...props} shape={shape} tiles={tiles} rows={rows} />
    </NamesProvider>
  );
}

function CardList({ shape, tiles, rows, ...props }: ModeRuntimeProps & { shape: CardShape; tiles: boolean; rows: Row[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const context = useDisplayContext();
  const controls = useMemo(() => controlsByCode(props.definition), [props.definition]);
  const byCode = new Map<string, ViewFieldInfo>(props.fields.map((f) => [f.code, f]));
  const covers = shape.coverField ? rows.flatMap((r) => firstImage(r[shape.coverField!]) ?? []) : [];
  const urls = useFileUrls(covers.map((f) => f.id));
  const text = (code: string, row: Row) => {
    const field = byCode.get(code);
    return field ? cellText(field, row[code], controls, context) : String(row[code] ?? '');
  };
  const page = props.page;
  if (page?.loading && !rows.length) return <Spin />;
  if (!rows.length) return <Empty description={t('viewModes.card.empty')} />;
  return (
    <Flex vertical gap="small">
      <div role="list" aria-label={t('viewModes.card.list')}
        style={{ display: 'grid', gap: tiles ? token.marginXS : token.margin, gridTemplateColumns: tiles ? 'repeat(2, minmax(0, 1fr))' : 'repeat(auto-fill, minmax(220px, 1fr))' }}>
        {rows.map((row) => {
          const cover = shape.coverField ? firstImage(row[shape.coverField]) : undefined;
          const title = text(shape.titleField, row) || String(row.Name ?? '') || t('viewModes.card.untitled');
          return (
            <Card key={row.ObjectId} role="listitem" aria-label={title} hoverable size="small" onClick={() => props.onOpen(row)}
              cover={cover ? <img alt={cover.name} src={urls[cover.id]} style={{ height: tiles ? 96 : 140, objectFit: 'cover' }} /> : undefined}>
              <Typography.Text strong ellipsis={{ tooltip: title }} style={{ display: 'block' }}>{title}</Typography.Text>
              {shape.fields.filter((code) => byCode.has(code)).map((code) => (
                <Flex key={code} gap={4} style={{ fontSize: token.fontSizeSM, minWidth: 0 }}>
                  <Typography.Text type="secondary" style={{ flex: 'none' }}>{byCode.get(code)!.title}</Typography.Text>
                  <Typography.Text ellipsis style={{ minWidth: 0 }}>{text(code, row) || EMPTY_VALUE_DISPLAY}</Typography.Text>
                </Flex>
              ))}
            </Card>
          );
        })}
      </div>
      {page && (
        <Pagination size="small" align="end" current={page.index + 1} pageSize={page.size} total={page.total} showSizeChanger={!tiles} simple={tiles}
          pageSizeOptions={PAGE_SIZE_OPTIONS.filter((n) => n >= 10).map(String)} showTotal={tiles ? undefined : (total) => t('listView.total', { total })}
          onChange={(index, size) => page.onPage({ index: size === page.size ? index - 1 : 0, size })} />
      )}
    </Flex>
  );
}

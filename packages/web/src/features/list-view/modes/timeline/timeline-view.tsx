import { useMemo, useState } from 'react';
import { Alert, Button, Empty, Flex, Segmented, Spin, Tooltip, Typography, theme } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { CALENDAR_VIEW_MAX_RECORDS } from '@tritium/shared/constants/limits';
import { STYLE_PALETTE } from '@tritium/shared/constants/formats';
import { TIMELINE_ZOOMS, settingsOf, timelineMode } from '@tritium/shared/view-modes/index';
import { runtimeKeys } from '../../../form-runtime/api/runtime-api.ts';
import { NamesProvider, useDisplayContext } from '../../../form-runtime/model/names.tsx';
import { listViewApi } from '../../api/list-view-api.ts';
import { cellText, controlsByCode, unitIdsOf } from '../../model/cells.ts';
import type { ModeRuntimeProps, Row } from '../types.ts';
import { useIsPhone } from '../../../../lib/use-is-phone.ts';
import { formatDate, formatMonth, formatMonthDay } from '../../../../lib/date-format.ts';

// The timeline (view mode 2; docs/decisions/0047): records as bars on a time axis, one row per value of the group
// field (a person, an option), zoomed by day, week or month. The window's records come from the calendar's range call
// (POST /v1/bizdata/view/calendar, at most 1,000). Written by hand: a few absolutely placed bars over a grid of
// columns; no maintained React timeline fitted antd and React 19 without a second design system.

type Zoom = (typeof TIMELINE_ZOOMS)[number];
/** Columns the window shows per zoom, and each column's unit. */
const WINDOW: Record<Zoom, { columns: number; unit: 'day' | 'week' | 'month' }> = { day: { columns: 14, unit: 'day' }, week: { columns: 12, unit: 'week' }, month: { columns: 12, unit: 'month' } };
const BAR = 24;
const NONE = '\u0000none';

function windowOf(anchor: Dayjs, zoom: Zoom) {
  const { columns, unit } = WINDOW[zoom];
  // Today sits a third into the window: the recent past and the coming weeks are both in sight.
  const start = anchor.startOf(unit).subtract(Math.floor(columns / 3), unit);
  return { start, end: start.add(columns, unit), columns: Array.from({ length: columns }, (_, i) => start.add(i, unit)) };
}

/** Bars of one row put in lanes so that none overlaps another. */
function lanesOf(bars: { row: Row; from: number; to: number }[]) {
  const ends: number[] = [];
  return bars
    .sort((a, b) => a.from - b.from)
    .map((bar) => {
      let lane = ends.findIndex((end) => end <= bar.from);
      if (lane < 0) lane = ends.length;
      ends[lane] = bar.to;
      return { ...bar, lane };
    });
}

export default function TimelineView(props: ModeRuntimeProps) {
  const settings = settingsOf(timelineMode, props.view.settings);
  const [zoom, setZoom] = useState<Zoom>(settings.zoom);
  const [anchor, setAnchor] = useState(() => dayjs());
  const span = windowOf(anchor, zoom);
  const range = useQuery({
    queryKey: [...runtimeKeys.records(props.schemaCode), 'timeline', props.narrowing, span.start.valueOf(), span.end.valueOf()],
    queryFn: () => listViewApi.calendar({ ...props.narrowing, start: span.start.toISOString(), end: span.end.toISOString() }),
  });
  const rows = (range.data?.list ?? []) as Row[];
  return (
    <NamesProvider request={{ unitIds: unitIdsOf(rows, props.fields), objects: [] }}>
      <TimelineBody {...props} rows={rows} loading={range.isFetching} tooMany={range.data?.hasMore ? range.data.total : null} span={span} zoom={zoom} settings={settings}
        onZoom={setZoom} onMove={(step) => setAnchor((a) => (step === 0 ? dayjs() : a.add(step * WINDOW[zoom].columns, WINDOW[zoom].unit)))} />
    </NamesProvider>
  );
}

interface BodyProps extends ModeRuntimeProps {
  rows: Row[];
  loading: boolean;
  tooMany: number | null;
  span: ReturnType<typeof windowOf>;
  zoom: Zoom;
  settings: ReturnType<typeof settingsOf<typeof timelineMode>>;
  onZoom: (zoom: Zoom) => void;
  onMove: (step: -1 | 0 | 1) => void;
}

function TimelineBody({ rows, loading, tooMany, span, zoom, settings, onZoom, onMove, ...props }: BodyProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const context = useDisplayContext();
  const controls = useMemo(() => controlsByCode(props.definition), [props.definition]);
  const byCode = new Map(props.fields.map((f) => [f.code, f]));
  const group = settings.groupField ? byCode.get(settings.groupField) : undefined;
  const from = span.start.valueOf();
  const width = span.end.valueOf() - from;
  const groups = new Map<string, { title: string; bars: { row: Row; from: number; to: number }[] }>();
  for (const row of rows) {
    const start = dayjs(String(row[settings.startField]));
    const end = row[settings.endField] ? dayjs(String(row[settings.endField])) : start;
    const value = group ? row[group.code] : undefined;
    const key = value == null || value === '' ? NONE : String(value);
    const title = key === NONE ? (group ? t('viewModes.kanban.none') : t('viewModes.timeline.all')) : cellText(group!, value, controls, context) || key;
    const entry = groups.get(key) ?? { title, bars: [] };
    // A short record still gets most of a column, so its title can be read.
    const left = Math.max(0, (start.valueOf() - from) / width);
    entry.bars.push({ row, from: left, to: Math.min(1, Math.max((end.valueOf() - from) / width, left + 0.9 / span.columns.length)) });
    groups.set(key, entry);
  }
  const label = (code: string, row: Row) => {
    const field = byCode.get(code);
    return (field ? cellText(field, row[code], controls, context) : String(row[code] ?? '')) || String(row.Name ?? '') || t('viewModes.calendar.untitled');
  };
  const colourOf = (row: Row) => {
    if (!group) return token.colorPrimaryBg;
    const index = (controls.get(group.code)?.options as { itemColors?: Record<string, number> } | undefined)?.itemColors?.[String(row[group.code] ?? '')];
    return index === undefined ? token.colorPrimaryBg : STYLE_PALETTE[index];
  };
  const labelWidth = useIsPhone() ? 88 : 140;
  return (
    <Flex vertical gap="small" role="region" aria-label={t('viewModes.modes.timeline')}>
      <Flex gap="small" align="center" wrap>
        <Button icon={<LeftOutlined />} aria-label={t('viewModes.timeline.previous')} onClick={() => onMove(-1)} />
        <Button onClick={() => onMove(0)}>{t('viewModes.timeline.today')}</Button>
        <Button icon={<RightOutlined />} aria-label={t('viewModes.timeline.next')} onClick={() => onMove(1)} />
        <Typography.Text strong>{`${formatDate(span.start)} ~ ${formatDate(span.end.subtract(1, 'day'))}`}</Typography.Text>
        <div style={{ flex: 1 }} />
        <Segmented aria-label={t('viewModes.zoom')} value={zoom} onChange={(v) => onZoom(v as Zoom)} options={TIMELINE_ZOOMS.map((z) => ({ value: z, label: t(`viewModes.layouts.${z}`) }))} />
      </Flex>
      {tooMany !== null && <Alert type="warning" showIcon title={t('viewModes.calendar.tooMany', { total: tooMany, max: CALENDAR_VIEW_MAX_RECORDS })} />}
      <div style={{ overflowX: 'auto' }}>
        <div style={{ minWidth: labelWidth + span.columns.length * 64, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius }}>
          <div style={{ display: 'flex', borderBottom: `1px solid ${token.colorBorderSecondary}`, background: token.colorFillQuaternary }}>
            <div style={{ width: labelWidth, flex: 'none' }} />
            {span.columns.map((c) => (
              <div key={c.valueOf()} style={{ flex: 1, padding: '4px 6px', fontSize: token.fontSizeSM, color: token.colorTextSecondary, borderInlineStart: `1px solid ${token.colorBorderSecondary}` }}>{zoom === 'month' ? formatMonth(c) : formatMonthDay(c)}</div>
            ))}
          </div>
          {loading && !rows.length ? <Spin style={{ margin: token.margin }} /> : !groups.size ? <Empty style={{ margin: token.margin }} description={t('viewModes.card.empty')} /> : (
            [...groups].map(([key, g]) => {
              const bars = lanesOf(g.bars);
              const lanes = Math.max(1, ...bars.map((b) => b.lane + 1));
              return (
                <div key={key} role="group" aria-label={g.title} style={{ display: 'flex', borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
                  <div style={{ width: labelWidth, flex: 'none', padding: '6px 8px' }}><Typography.Text ellipsis>{g.title}</Typography.Text></div>
                  <div style={{ position: 'relative', flex: 1, height: lanes * (BAR + 6) + 6, backgroundImage: `repeating-linear-gradient(to right, transparent 0, transparent calc(100% / ${span.columns.length} - 1px), ${token.colorBorderSecondary} calc(100% / ${span.columns.length} - 1px), ${token.colorBorderSecondary} calc(100% / ${span.columns.length}))` }}>
                    {bars.map((b) => {
                      const title = label(settings.titleField, b.row);
                      return (
                        <Tooltip key={b.row.ObjectId} title={title}>
                          <button type="button" aria-label={title} onClick={() => props.onOpen(b.row)}
                            style={{ position: 'absolute', left: `${b.from * 100}%`, width: `${(b.to - b.from) * 100}%`, top: 6 + b.lane * (BAR + 6), height: BAR, background: colourOf(b.row), border: `1px solid ${token.colorBorder}`, borderRadius: token.borderRadiusSM, padding: '0 6px', overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', textAlign: 'start', cursor: 'pointer', fontSize: token.fontSizeSM, color: '#000' }}>
                            {title}
                          </button>
                        </Tooltip>
                      );
                    })}
                  </div>
                </div>
              );
            })
          )}
        </div>
      </div>
    </Flex>
  );
}

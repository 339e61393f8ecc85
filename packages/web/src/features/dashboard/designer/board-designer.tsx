import { useMemo, useState } from 'react';
import { App, Button, Card, Dropdown, Flex, Select, Space, Typography } from 'antd';
import { DeleteOutlined, FilterOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { BoardDefinition, REPORT_LIMITS, WIDGET_TYPES, type Widget, type WidgetType } from '@tritium/shared/report/index';
import { dashboardApi, dashboardKeys, type BoardDto } from '../api/dashboard-api.ts';
import { GRID_GAP, ROW_HEIGHT } from '../board-grid.tsx';
import { WidgetCard } from '../widgets/widget-card.tsx';
import { WidgetEditor } from './widget-editor.tsx';
import { FilterSettings } from './filter-settings.tsx';
import { useWideLayout } from '../../../lib/pane-folds.tsx';
import { newWidget } from './new-widget.ts';

const REFRESH_CHOICES = [0, 30, 60, 300, 900, 3600];

/**
 * The board's designer (app administrators): widgets laid out by drag (title bar) and resize (corner) on a
 * 12-column grid with react-grid-layout, each widget's settings beside the grid, the board's filters and refresh.
 * The widgets show live numbers while being designed.
 */
export default function BoardDesigner({ board, onClose }: { board: BoardDto; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<BoardDefinition>(board.definition);
  const [selected, setSelected] = useState<string | null>(draft.widgets[0]?.id ?? null);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const { width, containerRef, mounted } = useContainerWidth();
  useWideLayout();
  const current = draft.widgets.find((w) => w.id === selected);

  const layout: Layout = useMemo(() => draft.widgets.map((w) => ({ i: w.id, ...w.layout, minW: 2, minH: 2 })), [draft.widgets]);
  const onLayoutChange = (next: Layout) =>
    setDraft((d) => ({
      ...d,
      widgets: d.widgets.map((w) => {
        const item = next.find((l) => l.i === w.id);
        return item ? { ...w, layout: { x: item.x, y: item.y, w: Math.min(item.w, REPORT_LIMITS.columns), h: item.h } } : w;
      }),
    }));
  const update = (widget: Widget) => setDraft((d) => ({ ...d, widgets: d.widgets.map((w) => (w.id === widget.id ? widget : w)) }));
  const add = (type: WidgetType) => {
    const widget = newWidget(type, draft.widgets);
    setDraft((d) => ({ ...d, widgets: [...d.widgets, widget] }));
    setSelected(widget.id);
  };
  const remove = (id: string) => {
    setDraft((d) => ({ ...d, widgets: d.widgets.filter((w) => w.id !== id), filters: d.filters.map((f) => ({ ...f, bindings: f.bindings.filter((b) => b.widgetId !== id) })) }));
    if (selected === id) setSelected(null);
  };
  const save = useMutation({
    mutationFn: () => dashboardApi.save(board.code, BoardDefinition.parse(draft)),
    onSuccess: (saved) => {
      queryClient.setQueryData(dashboardKeys.board(board.code), saved);
      message.success(t('dashboard.designer.saved'));
      onClose();
    },
  });

  return (
    <Flex vertical gap="small" data-board-designer="">
      <Flex justify="space-between" wrap gap="small">
        <Space wrap>
          <Dropdown menu={{ items: WIDGET_TYPES.map((type) => ({ key: type, label: t(`dashboard.types.${type}`) })), onClick: ({ key }) => add(key as WidgetType) }} disabled={draft.widgets.length >= REPORT_LIMITS.widgets}>
            <Button type="primary" icon={<PlusOutlined />}>
              {t('dashboard.designer.addWidget')}
            </Button>
          </Dropdown>
          <Button icon={<FilterOutlined />} onClick={() => setFiltersOpen(true)}>
            {t('dashboard.designer.filters', { count: draft.filters.length })}
          </Button>
          <Typography.Text type="secondary">{t('dashboard.designer.refresh')}</Typography.Text>
          <Select
            aria-label={t('dashboard.designer.refresh')}
            style={{ width: 110 }}
            value={draft.refreshSeconds}
            options={REFRESH_CHOICES.map((s) => ({ value: s, label: s ? t('dashboard.designer.everySeconds', { count: s }) : t('dashboard.designer.refreshOff') }))}
            onChange={(refreshSeconds) => setDraft((d) => ({ ...d, refreshSeconds }))}
          />
        </Space>
        <Space>
          <Button onClick={onClose}>{t('dashboard.designer.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => save.mutate()}>
            {t('dashboard.designer.save')}
          </Button>
        </Space>
      </Flex>
      <Flex gap="middle" align="flex-start">
        <div ref={containerRef} style={{ flex: 1, minWidth: 0, minHeight: 320, background: 'var(--ant-color-fill-quaternary, #fafafa)', borderRadius: 8 }}>
          {mounted && (
            <ReactGridLayout
              width={width}
              layout={layout}
              gridConfig={{ cols: REPORT_LIMITS.columns, rowHeight: ROW_HEIGHT, margin: [GRID_GAP, GRID_GAP] }}
              dragConfig={{ enabled: true, handle: '.ant-card-head', cancel: 'button' }}
              resizeConfig={{ enabled: true, handles: ['se'] }}
              compactor={verticalCompactor}
              onLayoutChange={onLayoutChange}
            >
              {draft.widgets.map((w) => (
                <div key={w.id} onMouseDown={() => setSelected(w.id)} style={{ outline: w.id === selected ? '2px solid var(--ant-color-primary, #1677ff)' : undefined, borderRadius: 8 }}>
                  <WidgetCard
                    widget={{ ...w, title: w.title || t(`dashboard.types.${w.type}`) }}
                    extra={
                      <Space size={0}>
                        <Button size="small" type="text" aria-label={t('dashboard.designer.edit')} icon={<SettingOutlined />} onClick={() => setSelected(w.id)} />
                        <Button size="small" type="text" danger aria-label={t('dashboard.designer.remove')} icon={<DeleteOutlined />} onClick={() => remove(w.id)} />
                      </Space>
                    }
                  />
                </div>
              ))}
            </ReactGridLayout>
          )}
          {!draft.widgets.length && <Typography.Paragraph type="secondary" style={{ padding: 24 }}>{t('dashboard.designer.emptyHint')}</Typography.Paragraph>}
        </div>
        <Card size="small" title={t('dashboard.designer.widgetSettings')} style={{ width: 340, flexShrink: 0 }} styles={{ body: { maxHeight: '70vh', overflow: 'auto' } }}>
          {current ? <WidgetEditor key={current.id} widget={current} appCode={board.appCode} onChange={update} /> : <Typography.Text type="secondary">{t('dashboard.designer.pick')}</Typography.Text>}
        </Card>
      </Flex>
      <FilterSettings open={filtersOpen} board={draft} onClose={() => setFiltersOpen(false)} onChange={(filters) => setDraft((d) => ({ ...d, filters }))} />
    </Flex>
  );
}

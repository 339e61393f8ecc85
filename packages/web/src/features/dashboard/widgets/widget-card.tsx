import type { ReactNode } from 'react';
import { Alert, App, Button, Card, Tooltip, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { STATIC_WIDGET_TYPES, type Widget } from '@tritium/shared/report/index';
import type { FilterNode } from '@tritium/shared/query/index';
import { dashboardApi, dashboardKeys, downloadWidget } from '../api/dashboard-api.ts';
import { WidgetBody } from './widget-body.tsx';

export interface WidgetCardProps {
  widget: Widget;
  /** The board filters bound to this widget, as one condition. */
  filter?: FilterNode;
  /** Auto refresh: seconds between reads (0: off). */
  refreshSeconds?: number;
  /** The group's dimension values, with the answer's dimension data types (a province or a rolled-up department drills inside it). */
  onDrill?: (widget: Widget, values: unknown[], dataTypes: string[]) => void;
  /** Buttons in the title bar (the designer's); otherwise tables and pivots offer their export. */
  extra?: ReactNode;
  height?: number | string;
}

/** One widget on a board: its title, and its numbers read for the viewer. */
export function WidgetCard({ widget, filter, refreshSeconds = 0, onDrill, extra, height = '100%' }: WidgetCardProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const needsData = !STATIC_WIDGET_TYPES.includes(widget.type);
  const data = useQuery({
    queryKey: [...dashboardKeys.data, widget, filter],
    queryFn: ({ signal }) => dashboardApi.data(widget, filter, signal),
    enabled: needsData && !!widget.source,
    refetchInterval: refreshSeconds > 0 ? refreshSeconds * 1000 : false,
    retry: false,
  });
  return (
    <Card
      size="small"
      title={widget.title || undefined}
      extra={
        extra ??
        ((widget.type === 'table' || widget.type === 'pivot') && data.data ? (
          <Tooltip title={t('dashboard.export')}>
            <Button size="small" type="text" aria-label={t('dashboard.export')} icon={<DownloadOutlined />} onClick={() => downloadWidget(widget, filter).catch(() => message.error(t('dashboard.exportFailed')))} />
          </Tooltip>
        ) : undefined)
      }
      data-widget={widget.id}
      data-widget-type={widget.type}
      style={{ height, display: 'flex', flexDirection: 'column' }}
      styles={{ body: { flex: 1, minHeight: 0, overflow: 'auto', padding: 12 } }}
    >
      {needsData && !widget.source ? (
        <Typography.Text type="secondary">{t('dashboard.needsSource')}</Typography.Text>
      ) : data.isError ? (
        <Alert type="warning" showIcon message={data.error instanceof Error ? data.error.message : t('dashboard.loadFailed')} />
      ) : (
        <WidgetBody widget={widget} data={data.data} onDrill={onDrill ? (values) => onDrill(widget, values, data.data?.columns.filter((c) => c.kind === 'dimension').map((c) => c.dataType) ?? []) : undefined} />
      )}
      {data.data?.truncated && <Typography.Text type="secondary">{t('dashboard.truncated')}</Typography.Text>}
    </Card>
  );
}

import { lazy, Suspense, useMemo } from 'react';
import { Button, Empty, Flex, Skeleton, Statistic, Table, Typography, theme } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CHART_WIDGET_TYPES, type Widget } from '@tritium/shared/report/index';
import type { ReportData } from '../api/dashboard-api.ts';
import { chartModel } from '../model/chart-option.ts';
import { changeRatio, formatNumber, groupText } from '../model/format.ts';
import { PivotTable } from './pivot-table.tsx';

const EChartView = lazy(() => import('./echart-view.tsx'));

// antd's preset colours (level 6) after the theme's primary colour: charts in the product's palette.
const PALETTE = ['#52c41a', '#faad14', '#ff4d4f', '#722ed1', '#13c2c2', '#eb2f96', '#fa8c16', '#2f54eb', '#a0d911'];

export interface WidgetBodyProps {
  widget: Widget;
  data: ReportData | undefined;
  /** The records of one group: its dimension values in order. */
  onDrill?: (values: unknown[]) => void;
}

/** What a widget draws from its numbers. */
export function WidgetBody({ widget, data, onDrill }: WidgetBodyProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const words = useMemo(() => ({ blank: t('dashboard.blank'), yes: t('dashboard.yes'), no: t('dashboard.no') }), [t]);
  const model = useMemo(
    () => (data && CHART_WIDGET_TYPES.includes(widget.type) ? chartModel(widget, data, { locale: i18n.language, words, colors: [token.colorPrimary, ...PALETTE], textColor: token.colorText, mapLow: token.colorPrimaryBg, mapEmpty: token.colorFillSecondary, mapHover: token.colorPrimaryHover }) : null),
    [widget, data, i18n.language, words, token.colorPrimary, token.colorText, token.colorPrimaryBg, token.colorFillSecondary, token.colorPrimaryHover],
  );

  if (widget.type === 'text') return <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{widget.text}</Typography.Paragraph>;
  if (widget.type === 'link') {
    return (
      <Flex align="center" justify="center" style={{ height: '100%' }}>
        <Button type="link" size="large" icon={<LinkOutlined />} href={widget.url} target={widget.url?.startsWith('/') ? undefined : '_blank'} rel="noopener noreferrer">
          {widget.text || widget.url}
        </Button>
      </Flex>
    );
  }
  if (!data) return <Skeleton active paragraph={{ rows: 3 }} title={false} />;
  const d = data.columns.filter((c) => c.kind === 'dimension').length;

  if (widget.type === 'number') {
    const format = widget.measures[0]?.format;
    const comparison = data.comparison;
    const value = comparison ? comparison.current[0] : ((data.rows[0]?.[d] as number | null) ?? null);
    const ratio = comparison ? changeRatio(comparison.current[0] ?? null, comparison.previous[0] ?? null) : null;
    return (
      <Flex vertical justify="center" gap={4} style={{ height: '100%' }}>
        <Statistic value={formatNumber(value, format, i18n.language)} valueStyle={{ fontSize: 30 }} />
        {comparison && widget.compare && (
          <Typography.Text type="secondary">
            {t(`dashboard.compare.${widget.compare.period}`)} {formatNumber(comparison.previous[0] ?? null, format, i18n.language)}
            {ratio !== null && (
              <Typography.Text style={{ marginInlineStart: 8, color: ratio >= 0 ? token.colorSuccess : token.colorError }}>
                {ratio >= 0 ? <ArrowUpOutlined /> : <ArrowDownOutlined />} {formatNumber(Math.abs(ratio), { decimals: 1, percent: true, thousands: true }, i18n.language)}
              </Typography.Text>
            )}
          </Typography.Text>
        )}
      </Flex>
    );
  }
  if (!data.rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noData')} />;

  if (model) {
    return (
      <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} title={false} />}>
        <EChartView
          option={model.option}
          aria-label={widget.title}
          onPick={onDrill && d ? (i, s) => {
            const values = model.groupsOf(i, s);
            if (values) onDrill(values);
          } : undefined}
        />
      </Suspense>
    );
  }
  if (widget.type === 'pivot' && d >= 2) return <PivotTable widget={widget} data={data} words={words} onDrill={onDrill} />;

  const columns = data.columns.map((c, i) => ({
    key: c.key,
    dataIndex: i,
    title: c.label,
    align: c.kind === 'measure' ? ('right' as const) : undefined,
    render: (v: unknown) => (c.kind === 'measure' ? formatNumber(v as number | null, widget.measures[i - d]?.format, i18n.language) : groupText(v, c, data.labels, words)),
  }));
  return (
    <Table
      size="small"
      rowKey={(row: unknown[]) => JSON.stringify(row.slice(0, d))}
      columns={columns}
      dataSource={data.rows as never[]}
      pagination={false}
      scroll={{ x: 'max-content' }}
      onRow={(row: unknown[]) => ({ onClick: onDrill && d ? () => onDrill(row.slice(0, d)) : undefined, style: onDrill && d ? { cursor: 'pointer' } : undefined })}
      summary={() =>
        data.totals ? (
          <Table.Summary.Row>
            {data.columns.map((c, i) => (
              <Table.Summary.Cell key={c.key} index={i} align={c.kind === 'measure' ? 'right' : undefined}>
                {i === 0 ? t('dashboard.total') : c.kind === 'measure' ? formatNumber(data.totals![i] as number | null, widget.measures[i - d]?.format, i18n.language) : ''}
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        ) : null
      }
    />
  );
}

import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Widget } from '@tritium/shared/report/index';
import type { ReportData } from '../api/dashboard-api.ts';
import { formatNumber, groupText } from '../model/format.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The first dimension down, the second across, the first measure in the cells; row subtotals as the last column, column totals as the last row. */
export function PivotTable({ widget, data, words, onDrill }: { widget: Widget; data: ReportData; words: { blank: string; yes: string; no: string }; onDrill?: (values: unknown[]) => void }) {
  const { t, i18n } = useTranslation();
  const [rowDim, colDim] = data.columns.filter((c) => c.kind === 'dimension');
  const d = data.columns.filter((c) => c.kind === 'dimension').length;
  const format = widget.measures[0]?.format;
  const rowValues: unknown[] = [];
  const colValues: unknown[] = [];
  for (const r of data.rows) {
    if (!rowValues.some((v) => same(v, r[0]))) rowValues.push(r[0]);
    if (!colValues.some((v) => same(v, r[1]))) colValues.push(r[1]);
  }
  const cell = (rv: unknown, cv: unknown) => data.rows.find((r) => same(r[0], rv) && same(r[1], cv))?.[d] as number | null | undefined;
  const subtotal = (rv: unknown) => data.subtotals.find((r) => same(r[0], rv))?.[d] as number | null | undefined;
  const columns = [
    { key: 'row', title: rowDim?.label, dataIndex: 'row', fixed: 'left' as const, render: (v: unknown) => groupText(v, rowDim, data.labels, words) },
    ...colValues.map((cv, ci) => ({
      key: `c${ci}`,
      title: groupText(cv, colDim, data.labels, words),
      align: 'right' as const,
      onCell: (row: { row: unknown }) => ({ onClick: onDrill ? () => onDrill([row.row, cv]) : undefined, style: onDrill ? { cursor: 'pointer' } : undefined }),
      render: (_: unknown, row: { row: unknown }) => formatNumber(cell(row.row, cv) ?? null, format, i18n.language),
    })),
    ...(data.subtotals.length
      ? [{ key: 'sub', title: t('dashboard.subtotal'), align: 'right' as const, render: (_: unknown, row: { row: unknown }) => formatNumber(subtotal(row.row) ?? null, format, i18n.language) }]
      : []),
  ];
  return (
    <Table
      size="small"
      rowKey={(r) => JSON.stringify(r.row)}
      columns={columns}
      dataSource={rowValues.map((row) => ({ row }))}
      pagination={false}
      scroll={{ x: 'max-content' }}
      summary={() =>
        data.totals ? (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}>{t('dashboard.total')}</Table.Summary.Cell>
            {colValues.map((cv, ci) => (
              <Table.Summary.Cell key={ci} index={ci + 1} align="right">
                {formatNumber((data.columnTotals.find((r) => same(r[1], cv))?.[d] as number | null | undefined) ?? null, format, i18n.language)}
              </Table.Summary.Cell>
            ))}
            <Table.Summary.Cell index={colValues.length + 1} align="right">
              {formatNumber(data.totals[d] as number | null, format, i18n.language)}
            </Table.Summary.Cell>
          </Table.Summary.Row>
        ) : null
      }
    />
  );
}

import { useMemo } from 'react';
import { Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { EMPTY_VALUE_DISPLAY, STYLE_PALETTE } from '@tritium/shared/constants/formats';
import { PAGE_SIZE_OPTIONS } from '@tritium/shared/constants/views';
import type { contracts } from '@tritium/shared';
import { useDisplayContext } from '../../form-runtime/model/names.tsx';
import type { PageHeader, SortKey, ViewSetting } from '../api/list-view-api.ts';
import { cellText, controlsByCode } from '../model/cells.ts';
import { matches } from '../model/conditions.ts';

type Row = Record<string, unknown> & { ObjectId: string };
type Column = PageHeader['columns'][number];

/** Pages longer than this scroll virtually (only the rows in sight are drawn). */
export const VIRTUAL_FROM = 50;
const FORMAT = (n: number | null | undefined) => (n == null ? EMPTY_VALUE_DISPLAY : Number.isInteger(n) ? String(n) : n.toFixed(2));

export interface RecordTableProps {
  columns: Column[];
  view: ViewSetting;
  rowHeight: number;
  definition: contracts.FormDefinition | undefined;
  rows: Row[];
  total: number;
  loading: boolean;
  sort: SortKey[];
  onSort: (sort: SortKey[]) => void;
  page: { index: number; size: number };
  onPage: (page: { index: number; size: number }) => void;
  selected: string[];
  onSelect: (ids: string[]) => void;
  stats?: Record<string, contracts.ColumnStatResult>;
  onOpen: (row: Row) => void;
  height: number;
}

export function RecordTable(props: RecordTableProps) {
  const { t } = useTranslation();
  const context = useDisplayContext();
  const { view, rowHeight } = props;
  const controls = useMemo(() => controlsByCode(props.definition), [props.definition]);
  const rowRules = view.styleRules.filter((r) => r.field === undefined);
  const cellRules = (code: string) => view.styleRules.filter((r) => r.field === code);
  const colour = (rules: typeof view.styleRules, row: Row) => {
    const hit = rules.find((r) => matches(row, r.filter));
    return hit ? STYLE_PALETTE[hit.color] : undefined;
  };
  const sortOf = (code: string) => props.sort.find((s) => s.field === code);

  const columns: ColumnsType<Row> = props.columns.map((c, i) => {
    const s = sortOf(c.code);
    return {
      key: c.code,
      dataIndex: c.code,
      title: c.title,
      width: c.width ?? (i === 0 ? 200 : 150),
      fixed: c.fixed === 'left' || c.fixed === 'right' ? c.fixed : undefined,
      ellipsis: true,
      sorter: c.sortable,
      sortOrder: s ? (s.direction === 'asc' ? 'ascend' : 'descend') : null,
      onCell: (row: Row) => ({ style: { paddingBlock: 0, background: colour(cellRules(c.code), row) } }),
      render: (_: unknown, row: Row) => {
        const text = cellText(c, row[c.code], controls, context) || EMPTY_VALUE_DISPLAY;
        const content = <div style={{ height: rowHeight - 1, display: 'flex', alignItems: 'center', overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }}>{text}</div>;
        return i === 0 ? <Typography.Link onClick={(e) => { e.stopPropagation(); props.onOpen(row); }}>{content}</Typography.Link> : content;
      },
    };
  });
  const width = columns.reduce((sum, c) => sum + Number(c.width ?? 150), 60);
  const statTypes = new Map<string, string[]>();
  for (const s of view.stats) statTypes.set(s.field, [...(statTypes.get(s.field) ?? []), s.type]);
  const showSummary = statTypes.size > 0 && props.stats;

  return (
    <Table<Row>
      size="small"
      rowKey="ObjectId"
      virtual={props.rows.length > VIRTUAL_FROM}
      scroll={{ x: width, y: props.height }}
      loading={props.loading}
      dataSource={props.rows}
      columns={columns}
      locale={{ emptyText: t('listView.empty') }}
      rowSelection={{ selectedRowKeys: props.selected, onChange: (keys) => props.onSelect(keys.map(String)), fixed: true, columnWidth: 48 }}
      onRow={(row) => ({ style: { height: rowHeight, background: colour(rowRules, row) }, 'data-row-key': row.ObjectId } as React.HTMLAttributes<HTMLElement>)}
      onChange={(_p, _f, sorter, extra) => {
        if (extra.action !== 'sort') return;
        // A click sorts by that column alone (asc, desc, then the view's order again).
        const s = Array.isArray(sorter) ? sorter[0] : sorter;
        props.onSort(s?.order ? [{ field: String(s.columnKey), direction: s.order === 'ascend' ? 'asc' : 'desc' }] : []);
      }}
      pagination={{
        current: props.page.index + 1,
        pageSize: props.page.size,
        total: props.total,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
        showTotal: (total) => t('listView.total', { total }),
        onChange: (current, size) => props.onPage({ index: size === props.page.size ? current - 1 : 0, size }),
      }}
      summary={
        showSummary
          ? () => (
              <Table.Summary fixed>
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>{t('listView.stats.label')}</Table.Summary.Cell>
                  {props.columns.map((c, i) => {
                    const types = statTypes.get(c.code);
                    const stat = props.stats?.[c.code];
                    return (
                      <Table.Summary.Cell key={c.code} index={i + 1}>
                        {types && stat ? types.map((type) => `${t(`listView.stats.${type as 'sum'}`)} ${FORMAT(stat[type as keyof typeof stat])}`).join('  ') : null}
                      </Table.Summary.Cell>
                    );
                  })}
                </Table.Summary.Row>
              </Table.Summary>
            )
          : undefined
      }
    />
  );
}

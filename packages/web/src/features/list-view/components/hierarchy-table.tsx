import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EMPTY_VALUE_DISPLAY, STYLE_PALETTE } from '@tritium/shared/constants/formats';
import { PAGE_SIZE_OPTIONS } from '@tritium/shared/constants/views';
import { CHILD_COUNT_KEY } from '@tritium/shared/contracts/view/hierarchy';
import type { contracts } from '@tritium/shared';
import { isApiError } from '../../../lib/api-error.ts';
import { runtimeKeys } from '../../form-runtime/api/runtime-api.ts';
import { useDisplayContext } from '../../form-runtime/model/names.tsx';
import { listViewApi, type HierarchyChildren, type HierarchyChildrenInput, type PageHeader, type ViewSetting } from '../api/list-view-api.ts';
import { cellText, controlsByCode } from '../model/cells.ts';
import { matches } from '../model/conditions.ts';
import { AddChildDialog } from './add-child-dialog.tsx';

// The Hierarchy view (view mode 6; docs/decisions/0023): antd's tree table over POST /v1/bizdata/view/children. The
// roots come a page at a time; a record's children are asked when it is expanded (50 at a time, "more" for the
// rest), so a view of 100,000 records never loads at once. Every level sits under the runtime's records key: saving
// a record refreshes the levels shown.

type Row = Record<string, unknown> & { ObjectId: string };
type Column = PageHeader['columns'][number];
type Narrowing = Omit<HierarchyChildrenInput, 'parentId' | 'pageIndex' | 'pageSize'>;

/** A drawn row: a record, a "loading" placeholder under an expanded record, or the "more" line of a level. */
interface TreeRow {
  key: string;
  kind: 'record' | 'loading' | 'more';
  row?: Row;
  parentId?: string;
  shown?: number;
  total?: number;
  children?: TreeRow[];
}

const CHILD_PAGE = 50;
const errorText = (error: unknown) => (isApiError(error) ? error.message : String(error));

export interface HierarchyTableProps {
  schemaCode: string;
  narrowing: Narrowing;
  columns: Column[];
  view: ViewSetting;
  rowHeight: number;
  definition: contracts.FormDefinition | undefined;
  height: number;
  onOpen: (row: Row) => void;
}

export function HierarchyTable(props: HierarchyTableProps) {
  const { t } = useTranslation();
  const context = useDisplayContext();
  const queryClient = useQueryClient();
  const { schemaCode, narrowing, view, rowHeight } = props;
  const controls = useMemo(() => controlsByCode(props.definition), [props.definition]);
  const [page, setPage] = useState({ index: 0, size: view.pageSize });
  const [expanded, setExpanded] = useState<string[]>([]);
  const [pages, setPages] = useState<Record<string, number>>({});
  const [refused, setRefused] = useState<string | null>(null);
  const [adding, setAdding] = useState<Row | null>(null);
  // The view's setting is part of the key: a view saved in the designer (its fixed filter, sort) is asked again.
  const key = (parentId: string | null, index: number, size: number) => [...runtimeKeys.records(schemaCode), 'children', view, narrowing, parentId, index, size] as const;

  const roots = useQuery({
    queryKey: key(null, page.index, page.size),
    queryFn: () => listViewApi.children({ ...narrowing, parentId: null, pageIndex: page.index, pageSize: page.size }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const asked = expanded.flatMap((id) => Array.from({ length: pages[id] ?? 1 }, (_, index) => ({ id, index })));
  const levels = useQueries({
    queries: asked.map(({ id, index }) => ({
      queryKey: key(id, index, CHILD_PAGE),
      queryFn: () => listViewApi.children({ ...narrowing, parentId: id, pageIndex: index, pageSize: CHILD_PAGE }),
      retry: false,
    })),
  });
  // A level the server refuses (past 10 levels) closes again and says why.
  const failed = levels.findIndex((q) => q.isError);
  const failedId = failed >= 0 ? asked[failed].id : null;
  const failedText = failed >= 0 ? errorText(levels[failed].error) : null;
  useEffect(() => {
    if (!failedId) return;
    setRefused(failedText);
    setExpanded((list) => list.filter((x) => x !== failedId));
  }, [failedId, failedText]);

  const childrenOf = new Map<string, { rows: Row[]; total: number; loading: boolean }>();
  asked.forEach(({ id }, i) => {
    const data = levels[i].data as HierarchyChildren | undefined;
    const entry = childrenOf.get(id) ?? { rows: [], total: 0, loading: false };
    if (data) {
      entry.rows.push(...(data.list as Row[]));
      entry.total = data.total;
    } else entry.loading = true;
    childrenOf.set(id, entry);
  });

  const build = (rows: Row[]): TreeRow[] =>
    rows.map((row) => {
      const count = Number(row[CHILD_COUNT_KEY] ?? 0);
      const node: TreeRow = { key: row.ObjectId, kind: 'record', row };
      if (count > 0) {
        const level = childrenOf.get(row.ObjectId);
        if (!level || (level.loading && level.rows.length === 0)) node.children = [{ key: `loading:${row.ObjectId}`, kind: 'loading' }];
        else {
          node.children = build(level.rows);
          if (level.rows.length < level.total) node.children.push({ key: `more:${row.ObjectId}`, kind: 'more', parentId: row.ObjectId, shown: level.rows.length, total: level.total });
        }
      }
      return node;
    });
  const rootRows = (roots.data?.list ?? []) as Row[];
  const data = build(rootRows);

  const rowRules = view.styleRules.filter((r) => r.field === undefined);
  const colour = (rules: typeof view.styleRules, row: Row | undefined) => {
    const hit = row && rules.find((r) => matches(row, r.filter));
    return hit ? STYLE_PALETTE[hit.color] : undefined;
  };
  // Cells keep one line; the row's height comes from the row (the tree's expand icon floats on the first line).
  const cell = (content: React.ReactNode) => <span style={{ whiteSpace: 'nowrap' }}>{content}</span>;
  const columns: ColumnsType<TreeRow> = props.columns.map((c, i) => ({
    key: c.code,
    title: c.title,
    width: c.width ?? (i === 0 ? 280 : 150),
    ellipsis: i > 0,
    onCell: (node: TreeRow) => ({ style: { paddingBlock: 0, background: colour(view.styleRules.filter((r) => r.field === c.code), node.row) } }),
    render: (_: unknown, node: TreeRow) => {
      if (node.kind === 'loading') return i === 0 ? cell(<Typography.Text type="secondary">{t('treeView.loading')}</Typography.Text>) : null;
      if (node.kind === 'more') {
        return i === 0
          ? cell(<Button size="small" type="link" onClick={() => setPages((p) => ({ ...p, [node.parentId!]: (p[node.parentId!] ?? 1) + 1 }))}>{t('treeView.more', { shown: node.shown, total: node.total })}</Button>)
          : null;
      }
      const row = node.row!;
      const text = cellText(c, row[c.code], controls, context) || EMPTY_VALUE_DISPLAY;
      return i === 0 ? cell(<Typography.Link onClick={(e) => { e.stopPropagation(); props.onOpen(row); }}>{text}</Typography.Link>) : cell(text);
    },
  }));
  columns.push({
    key: '$actions',
    title: t('treeView.actions'),
    width: 120,
    fixed: 'right',
    render: (_: unknown, node: TreeRow) =>
      node.kind === 'record' ? (
        <Button size="small" type="link" icon={<PlusOutlined />} onClick={(e) => { e.stopPropagation(); setAdding(node.row!); }}>{t('treeView.addChild')}</Button>
      ) : null,
  });
  const width = columns.reduce((sum, c) => sum + Number(c.width ?? 150), 0);

  if (roots.isError) return <Alert type="warning" showIcon title={t('treeView.refused')} description={errorText(roots.error)} />;
  return (
    <>
      {refused && <Alert type="warning" showIcon closable onClose={() => setRefused(null)} title={refused} style={{ marginBottom: 8 }} />}
      <Table<TreeRow>
        size="small"
        rowKey="key"
        aria-label={t('treeView.table')}
        scroll={{ x: width, y: props.height }}
        loading={roots.isFetching && !roots.data}
        dataSource={data}
        columns={columns}
        locale={{ emptyText: t('listView.empty') }}
        expandable={{
          expandedRowKeys: expanded,
          indentSize: 20,
          onExpand: (open, node) => {
            if (node.kind !== 'record') return;
            setRefused(null);
            setExpanded((list) => (open ? [...list, node.key] : list.filter((x) => x !== node.key)));
          },
        }}
        onRow={(node) => ({ style: { height: rowHeight, background: colour(rowRules, node.row) }, 'data-row-key': node.key } as React.HTMLAttributes<HTMLElement>)}
        pagination={{
          current: page.index + 1,
          pageSize: page.size,
          total: roots.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZE_OPTIONS.filter((n) => n >= 10).map(String),
          showTotal: (total) => t('treeView.total', { roots: total, records: roots.data?.viewTotal ?? total }),
          onChange: (current, size) => setPage({ index: size === page.size ? current - 1 : 0, size: size as typeof page.size }),
        }}
      />
      <AddChildDialog schemaCode={schemaCode} parent={adding?.ObjectId ?? null} parentTitle={String(adding?.Name ?? '')} parentField={view.parentField ?? ''} fields={props.columns}
        onClose={() => setAdding(null)} onSaved={(id) => { setExpanded((list) => (list.includes(id) ? list : [...list, id])); void queryClient.invalidateQueries({ queryKey: runtimeKeys.records(schemaCode) }); }} />
    </>
  );
}

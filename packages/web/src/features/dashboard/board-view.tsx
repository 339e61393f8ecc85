import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { App, Button, Drawer, Empty, Flex, Skeleton, Space, Spin, Tooltip } from 'antd';
import { EditOutlined, FullscreenExitOutlined, FullscreenOutlined, PushpinOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { boardConditionsOf, drillConditions, widgetStatusLeaf, type BoardDefinition, type Widget } from '@tritium/shared/report/index';
import type { FilterNode } from '@tritium/shared/query/index';
import { useIsPhone } from '../../lib/use-is-phone.ts';
import { dashboardApi, dashboardKeys, pinApi, workbenchConfigKey, type BoardDto } from './api/dashboard-api.ts';
import { BoardFilterBar, type FilterValues } from './board-filter-bar.tsx';
import { BoardGrid } from './board-grid.tsx';

const BoardDesigner = lazy(() => import('./designer/board-designer.tsx'));
// The drill-down's list (and the forms it opens) loads when a chart is clicked.
const ListView = lazy(() => import('../list-view/components/list-view.tsx').then((m) => ({ default: m.ListView })));

interface Drill {
  schemaCode: string;
  filter: FilterNode;
}

/**
 * A report or dashboard node open for reading (issue 22): its filters, its widgets on the grid (one column on a
 * phone), refresh by hand and automatically, full screen, drill-down to the list, pin to the workbench, and — for
 * the app's administrators — the designer.
 */
export function BoardView({ code, compact = false }: { code: string; compact?: boolean }) {
  const { t } = useTranslation();
  const board = useQuery({ queryKey: dashboardKeys.board(code), queryFn: () => dashboardApi.load(code) });
  // The designer needs a wide screen: phones read boards only.
  const isPhone = useIsPhone();
  const [designing, setDesigning] = useState(false);
  if (board.isError) return <Empty description={t('dashboard.loadFailed')} />;
  if (!board.data) return <Skeleton active />;
  if (designing) {
    return (
      <Suspense fallback={<Spin />}>
        <BoardDesigner board={board.data} onClose={() => setDesigning(false)} />
      </Suspense>
    );
  }
  return <BoardRuntime board={board.data} compact={compact} onDesign={board.data.canDesign && !compact && !isPhone ? () => setDesigning(true) : undefined} />;
}

function BoardRuntime({ board, compact, onDesign }: { board: BoardDto; compact: boolean; onDesign?: () => void }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const queryClient = useQueryClient();
  const frame = useRef<HTMLDivElement>(null);
  const [values, setValues] = useState<FilterValues>({});
  const [fullscreen, setFullscreen] = useState(false);
  const [drill, setDrill] = useState<Drill | null>(null);
  const definition: BoardDefinition = board.definition;
  const filters = useMemo(() => Object.fromEntries(definition.widgets.map((w) => [w.id, boardConditionsOf(definition, w.id, values)])), [definition, values]);

  const toggleFullscreen = async () => {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await frame.current?.requestFullscreen?.();
    setFullscreen(!!document.fullscreenElement);
  };
  const onDrill = (widget: Widget, groupValues: unknown[], dataTypes: string[]) => {
    if (!widget.source) return;
    const leaves = drillConditions(widget.dimensions, groupValues, dataTypes);
    const extra = filters[widget.id];
    // The records the group counted: of the data statuses the widget counts too.
    const status = widgetStatusLeaf(widget, extra);
    const children = [...(widget.filter ? [widget.filter] : []), ...(extra ? [extra] : []), ...(status ? [status] : []), ...leaves];
    setDrill({ schemaCode: widget.source.schemaCode, filter: { type: 'And', children: flattenAnd(children) } });
  };

  if (!definition.widgets.length) {
    return (
      <Empty description={t(onDesign ? 'dashboard.emptyDesign' : 'dashboard.empty')}>
        {onDesign && (
          <Button type="primary" icon={<EditOutlined />} onClick={onDesign}>
            {t('dashboard.design')}
          </Button>
        )}
      </Empty>
    );
  }
  return (
    <div ref={frame} style={{ background: fullscreen ? 'var(--ant-color-bg-layout, #f5f5f5)' : undefined, padding: fullscreen ? 16 : 0, overflow: fullscreen ? 'auto' : undefined }}>
      {!compact && (
        <Flex justify="space-between" align="center" wrap gap="small" style={{ marginBottom: 12 }}>
          <BoardFilterBar board={definition} values={values} onChange={setValues} />
          <Space wrap>
            <Tooltip title={t('dashboard.refresh')}>
              <Button aria-label={t('dashboard.refresh')} icon={<ReloadOutlined />} onClick={() => queryClient.invalidateQueries({ queryKey: dashboardKeys.data })} />
            </Tooltip>
            {!isPhone && (
              <Tooltip title={t(fullscreen ? 'dashboard.exitFullscreen' : 'dashboard.fullscreen')}>
                <Button aria-label={t(fullscreen ? 'dashboard.exitFullscreen' : 'dashboard.fullscreen')} icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggleFullscreen} />
              </Tooltip>
            )}
            <PinButton board={board} />
            {onDesign && (
              <Button icon={<EditOutlined />} onClick={onDesign}>
                {t('dashboard.design')}
              </Button>
            )}
          </Space>
        </Flex>
      )}
      <BoardGrid widgets={definition.widgets} filters={filters} refreshSeconds={definition.refreshSeconds} stacked={isPhone} onDrill={onDrill} />
      <Drawer open={!!drill} onClose={() => setDrill(null)} size={isPhone ? '100%' : '80%'} title={t('dashboard.drillTitle')} destroyOnHidden>
        {drill && (
          <Suspense fallback={<Skeleton active />}>
            <ListView key={JSON.stringify(drill)} schemaCode={drill.schemaCode} initialFilter={drill.filter} />
          </Suspense>
        )}
      </Drawer>
    </div>
  );
}

/** Nested Ands of leaves as one flat And (the list's condition panel shows flat rows). */
function flattenAnd(nodes: FilterNode[]): FilterNode[] {
  return nodes.flatMap((n) => ('children' in n && n.type === 'And' ? flattenAnd(n.children) : [n]));
}

/** Adds the board to the viewer's workbench (the workbench component configuration, per user). */
function PinButton({ board }: { board: BoardDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const config = useQuery({ queryKey: workbenchConfigKey, queryFn: pinApi.config });
  const pinned = config.data?.config.components.some((c) => c.type === 'dashboard' && c.nodeCode === board.code);
  const pin = useMutation({
    mutationFn: async () => {
      const current = (await pinApi.config()).config;
      const id = `dashboard-${board.code}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
      return pinApi.save({ components: [...current.components.filter((c) => c.id !== id), { id, type: 'dashboard', title: board.displayName.slice(0, 32), visible: true, width: 4, nodeCode: board.code }] });
    },
    onSuccess: (result) => {
      queryClient.setQueryData(workbenchConfigKey, result);
      message.success(t('dashboard.pinned'));
    },
  });
  return (
    <Button icon={<PushpinOutlined />} disabled={pinned} loading={pin.isPending} onClick={() => pin.mutate()}>
      {t(pinned ? 'dashboard.isPinned' : 'dashboard.pin')}
    </Button>
  );
}

import { useMemo, useState } from 'react';
import { Flex, Table, theme } from 'antd';
import { controlName } from '../labels.ts';
import type { DesignerControl } from '../state/control-tree.ts';
import { CanvasEnvContext, isVisible, type CanvasEnv, type ListArgs } from './canvas-env.ts';
import { ControlView } from './control-view.tsx';

function PreviewList({ args, device }: { args: ListArgs; device: 'pc' | 'phone' }) {
  const { token } = theme.useToken();
  const controls = args.controls.filter(isVisible);
  if (args.kind === 'columns') {
    // A sub-table: its columns over one empty row, as a new record shows it.
    return (
      <Table
        size="small"
        pagination={false}
        scroll={{ x: true }}
        rowKey="key"
        dataSource={[{ key: 'row' }]}
        columns={controls.map((column) => ({
          key: column.uid,
          title: controlName(column),
          width: 180,
          render: () => <ControlView control={column} ancestors={args.ancestors} title="none" />,
        }))}
      />
    );
  }
  const isGrid = args.kind === 'grid' && device === 'pc';
  return (
    <div
      role="list"
      aria-label={args.label}
      style={
        isGrid
          ? { display: 'grid', gridTemplateColumns: `repeat(${args.columns ?? 2}, minmax(0, 1fr))`, gap: token.padding }
          : { display: 'flex', flexDirection: 'column', gap: token.padding }
      }
    >
      {controls.map((control) => (
        <div role="listitem" aria-label={controlName(control)} key={control.uid}>
          <ControlView control={control} ancestors={args.ancestors} title={device === 'phone' || isGrid ? 'above' : 'beside'} />
        </div>
      ))}
    </div>
  );
}

/** The form read-only, at PC or phone width: what the preview dialog shows. */
export function PreviewCanvas({ controls, titleWidth, device, label }: { controls: DesignerControl[]; titleWidth: number; device: 'pc' | 'phone'; label: string }) {
  const [panes, setPanes] = useState<Record<string, string>>({});
  const env = useMemo<CanvasEnv>(
    () => ({
      mode: 'preview',
      device,
      titleWidth,
      renderList: (args) => <PreviewList args={args} device={device} />,
      activePane: (tab) => panes[tab.uid] ?? tab.panes?.[0]?.uid,
      showPane: (tab, paneUid) => setPanes((current) => ({ ...current, [tab.uid]: paneUid })),
    }),
    [device, titleWidth, panes],
  );
  return (
    <CanvasEnvContext.Provider value={env}>
      <Flex vertical>
        <PreviewList args={{ containerId: 'root', controls, ancestors: [], kind: 'stack', label, emptyText: '' }} device={device} />
      </Flex>
    </CanvasEnvContext.Provider>
  );
}

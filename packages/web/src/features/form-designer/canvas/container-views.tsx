/** Controls that hold other controls: a sub-table (its columns), a tab (its panes), one row of several columns. */
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { controlName } from '../labels.ts';
import type { DesignerControl } from '../state/control-tree.ts';
import { useCanvasEnv } from './canvas-env.ts';

interface ContainerProps {
  control: DesignerControl;
  /** The controls enclosing the list, this one included. */
  ancestors: string[];
}

export function SubTableView({ control, ancestors }: ContainerProps) {
  const { t } = useTranslation();
  const env = useCanvasEnv();
  const name = controlName(control);
  return env.renderList({
    containerId: control.uid,
    controls: control.controls ?? [],
    ancestors,
    kind: 'columns',
    label: t('formDesigner.canvas.subTableColumns', { name }),
    emptyText: t('formDesigner.canvas.emptySubTable'),
  });
}

export function LayoutView({ control, ancestors }: ContainerProps) {
  const { t } = useTranslation();
  const env = useCanvasEnv();
  const columns = typeof control.options.columns === 'number' ? control.options.columns : 2;
  return env.renderList({
    containerId: control.uid,
    controls: control.controls ?? [],
    ancestors,
    kind: 'grid',
    columns,
    label: t('formDesigner.canvas.layoutCells', { name: controlName(control) }),
    emptyText: t('formDesigner.canvas.emptyContainer'),
  });
}

export function TabView({ control, ancestors }: ContainerProps) {
  const { t } = useTranslation();
  const env = useCanvasEnv();
  const name = controlName(control);
  const panes = control.panes ?? [];
  return (
    <Tabs
      size="small"
      activeKey={env.activePane(control)}
      onChange={(key) => env.showPane(control, key)}
      items={panes.map((pane) => ({
        key: pane.uid,
        label: pane.title,
        children: env.renderList({
          containerId: pane.uid,
          controls: pane.controls,
          ancestors,
          kind: 'stack',
          label: t('formDesigner.canvas.pane', { name, pane: pane.title }),
          emptyText: t('formDesigner.canvas.emptyContainer'),
        }),
      }))}
    />
  );
}

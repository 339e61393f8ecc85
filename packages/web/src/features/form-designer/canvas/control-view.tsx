import type { ReactNode } from 'react';
import { Flex, Typography, theme } from 'antd';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { controlName } from '../labels.ts';
import type { DesignerControl } from '../state/control-tree.ts';
import { useCanvasEnv } from './canvas-env.ts';
import { LayoutView, SubTableView, TabView } from './container-views.tsx';
import { widgetFor } from './field-widgets.tsx';

/** Where the title sits: beside the field (PC), above it (phone, sub-table columns) or nowhere (table cells). */
export type TitlePlacement = 'beside' | 'above' | 'none';

interface ControlViewProps {
  control: DesignerControl;
  /** The controls enclosing this one, outermost first. */
  ancestors: string[];
  title?: TitlePlacement;
}

function Titled({ control, title, children }: { control: DesignerControl; title: TitlePlacement; children: ReactNode }) {
  const { token } = theme.useToken();
  const { titleWidth } = useCanvasEnv();
  if (title === 'none') return <>{children}</>;
  const tip = typeof control.options.description === 'string' ? control.options.description : '';
  const label = (
    <Typography.Text style={{ flex: title === 'beside' ? `0 0 ${titleWidth}px` : undefined, paddingTop: title === 'beside' ? token.paddingXXS : 0 }}>
      {control.options.required === true && <span style={{ color: token.colorError, marginInlineEnd: token.marginXXS }}>*</span>}
      {controlName(control)}
    </Typography.Text>
  );
  return (
    <Flex vertical={title === 'above'} gap={title === 'above' ? token.paddingXXS : token.padding}>
      {label}
      <Flex vertical gap={token.paddingXXS} style={{ flex: 1, minWidth: 0 }}>
        {children}
        {tip && (
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {tip}
          </Typography.Text>
        )}
      </Flex>
    </Flex>
  );
}

/**
 * One control as the person filling in the form will see it, read-only. Containers (sub-table, tab,
 * one-row-several-columns) draw their lists through the canvas, which adds drop zones while designing.
 */
export function ControlView({ control, ancestors, title = 'beside' }: ControlViewProps) {
  const type = controlTypeByKey(control.type);
  const inner = [...ancestors, control.uid];
  if (type.children === 'panes') return <TabView control={control} ancestors={inner} />;
  if (type.dataType === 'children') {
    return (
      <Titled control={control} title={title === 'none' ? 'none' : 'above'}>
        <SubTableView control={control} ancestors={inner} />
      </Titled>
    );
  }
  if (type.children === 'controls') return <LayoutView control={control} ancestors={inner} />;
  const Widget = widgetFor(type);
  // inert: the rendering shows what people will see; clicks and focus belong to the designer around it.
  const body = (
    <div inert style={{ minWidth: 0 }}>
      <Widget control={control} type={type} />
    </div>
  );
  return type.dataType === 'none' ? body : <Titled control={control} title={title}>{body}</Titled>;
}

import type { ReactNode } from 'react';
import type { AnyControlType } from '@tritium/shared/controls/index';
import type { DesignerControl } from '../state/control-tree.ts';

/** What a read-only canvas widget is given: the control as designed and its registry type. */
export interface WidgetProps {
  control: DesignerControl;
  type: AnyControlType;
}
export type Widget = (props: WidgetProps) => ReactNode;

import type { ComponentType, CSSProperties } from 'react';
import {
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  CalendarOutlined,
  CarOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DollarOutlined,
  FileTextOutlined,
  FolderOutlined,
  FormOutlined,
  LinkOutlined,
  NodeIndexOutlined,
  ProjectOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  SolutionOutlined,
  TeamOutlined,
  ToolOutlined,
  TrophyOutlined,
  ProfileOutlined,
  ApiOutlined,
} from '@ant-design/icons';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { APP_COLORS } from '../../lib/theme.ts';

type IconComponent = ComponentType<{ style?: CSSProperties }>;

/** The icons an app may wear; the stored value is the name. */
export const APP_ICONS: Record<string, IconComponent> = {
  appstore: AppstoreOutlined,
  team: TeamOutlined,
  project: ProjectOutlined,
  solution: SolutionOutlined,
  audit: AuditOutlined,
  calendar: CalendarOutlined,
  dollar: DollarOutlined,
  bank: BankOutlined,
  shop: ShopOutlined,
  cart: ShoppingCartOutlined,
  car: CarOutlined,
  tool: ToolOutlined,
  service: CustomerServiceOutlined,
  trophy: TrophyOutlined,
  database: DatabaseOutlined,
  chart: BarChartOutlined,
};
export const APP_ICON_NAMES = Object.keys(APP_ICONS);
export const DEFAULT_APP_ICON = 'appstore';
export const DEFAULT_APP_COLOR = APP_COLORS[0];

/** The icon of a node type, for nodes that wear no icon of their own. */
const NODE_TYPE_ICONS: Partial<Record<number, IconComponent>> = {
  [FunctionNodeType.AppPackage]: AppstoreOutlined,
  [FunctionNodeType.FormModule]: FormOutlined,
  [FunctionNodeType.WorkflowModule]: NodeIndexOutlined,
  [FunctionNodeType.ReportModule]: BarChartOutlined,
  [FunctionNodeType.GroupModule]: FolderOutlined,
  [FunctionNodeType.SingletonModule]: ProfileOutlined,
  [FunctionNodeType.ChatWorkflowModule]: NodeIndexOutlined,
  [FunctionNodeType.DashBoardModule]: DashboardOutlined,
  [FunctionNodeType.CustomLinkModule]: LinkOutlined,
  [FunctionNodeType.DataSourceModule]: ApiOutlined,
};

export function iconOf(node: { icon: string; nodeType: number }): IconComponent {
  return APP_ICONS[node.icon] ?? NODE_TYPE_ICONS[node.nodeType] ?? FileTextOutlined;
}

/** A stored colour, or the palette's first when the node has none (or an unreadable one). */
export function colorOf(node: { iconColor: string }): string {
  const value = node.iconColor.startsWith('#') ? node.iconColor : `#${node.iconColor}`;
  return /^#[0-9a-fA-F]{6}$/.test(value) ? value : DEFAULT_APP_COLOR;
}

import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { zhCN } from '../../locales/zh-CN.ts';

type NodeTypeName = keyof typeof zhCN.apps.nodeTypes;

const NAME_BY_TYPE: Record<number, NodeTypeName> = {
  [FunctionNodeType.AppPackage]: 'app',
  [FunctionNodeType.FormModule]: 'form',
  [FunctionNodeType.WorkflowModule]: 'workflow',
  [FunctionNodeType.ReportModule]: 'report',
  [FunctionNodeType.GroupModule]: 'group',
  [FunctionNodeType.SingletonModule]: 'singleton',
  [FunctionNodeType.ChatWorkflowModule]: 'chatWorkflow',
  [FunctionNodeType.DashBoardModule]: 'dashboard',
  [FunctionNodeType.CustomLinkModule]: 'customLink',
  [FunctionNodeType.DataSourceModule]: 'dataSource',
};

export const nodeTypeName = (nodeType: number): NodeTypeName => NAME_BY_TYPE[nodeType] ?? 'form';

/** Catalogue key of a node type's name (表单, 分组, …). */
export const nodeTypeKey = (nodeType: number) => `apps.nodeTypes.${nodeTypeName(nodeType)}` as const;

/** Catalogue key of what a node of this type will hold, shown until its screens exist. */
export const nodePendingKey = (nodeType: number) => `apps.pending.${nodeTypeName(nodeType)}` as const;

/** What an administrator may add to an app from the workbench, in menu order. */
export const CREATABLE_NODE_TYPES = [
  FunctionNodeType.FormModule,
  FunctionNodeType.WorkflowModule,
  FunctionNodeType.SingletonModule,
  FunctionNodeType.ReportModule,
  FunctionNodeType.DashBoardModule,
  FunctionNodeType.CustomLinkModule,
  FunctionNodeType.DataSourceModule,
  FunctionNodeType.GroupModule,
] as const;

/** Node types whose content is a form the designer builds. */
export const FORM_NODE_TYPES: readonly number[] = [FunctionNodeType.FormModule, FunctionNodeType.WorkflowModule, FunctionNodeType.SingletonModule];
export const isFormNode = (node: { nodeType: number }) => FORM_NODE_TYPES.includes(node.nodeType);

export const isGroup = (node: { nodeType: number }) => node.nodeType === FunctionNodeType.GroupModule;
export const isApp = (node: { nodeType: number }) => node.nodeType === FunctionNodeType.AppPackage;

/** Function nodes: the tree of apps, groups and modules (domain.md §3, calls.md §3). */

// domain.md §3 gives the codes; calls.md §3 the names. The spec does not name 250 (workflow bound to a
// chat provider) or 290 (data source): ChatWorkflowModule and DataSourceModule are our names.
export const FunctionNodeType = {
  AppPackage: 190,
  FormModule: 200,
  WorkflowModule: 210,
  ReportModule: 220,
  GroupModule: 230,
  SingletonModule: 240,
  ChatWorkflowModule: 250,
  DashBoardModule: 270,
  CustomLinkModule: 280,
  DataSourceModule: 290,
} as const;
export type FunctionNodeType = (typeof FunctionNodeType)[keyof typeof FunctionNodeType];

/** Every node type code, in numeric order. */
export const FUNCTION_NODE_TYPES = Object.values(FunctionNodeType) as readonly FunctionNodeType[];

// domain.md §3: a node is normal or disabled; appState Normal is the state of a live app.
export const FUNCTION_NODE_STATES = ['Normal', 'Disabled'] as const;
export type FunctionNodeState = (typeof FUNCTION_NODE_STATES)[number];

// domain.md §4, calls.md §4: a newly created app is Normal and its source is Own.
export const DEFAULT_APP_STATE: FunctionNodeState = 'Normal';

// domain.md §3: where a node comes from. Own is the only source the spec names.
export const FUNCTION_NODE_SOURCES = ['Own'] as const;
export type FunctionNodeSource = (typeof FUNCTION_NODE_SOURCES)[number];
export const DEFAULT_NODE_SOURCE: FunctionNodeSource = 'Own';

// domain.md §4, calls.md §4: node types that may be an app's default schema, searched among the first
// children (or the first group's children) when the app opens.
export const DEFAULT_SCHEMA_NODE_TYPES = [
  FunctionNodeType.FormModule,
  FunctionNodeType.WorkflowModule,
  FunctionNodeType.DashBoardModule,
  FunctionNodeType.ReportModule,
  FunctionNodeType.SingletonModule,
  FunctionNodeType.CustomLinkModule,
] as const satisfies readonly FunctionNodeType[];

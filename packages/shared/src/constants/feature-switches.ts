/**
 * Feature switches loaded when the workbench starts (domain.md §9, calls.md §9). The server answers with
 * each switch's value for the engine; these defaults apply when the engine has no value of its own.
 */

export type FeatureSwitchValue = '1' | '0';

export interface FeatureSwitchDefinition {
  readonly name: string;
  readonly defaultValue: FeatureSwitchValue;
  /** What the switch turns on. */
  readonly purpose: string;
}

// calls.md §9 names most of the 22; ganttView, fullTextSearch and smartAction complete the list from
// features of domain.md §1–§2. Defaults are ours: features that need outside services or a special
// deployment (AI, SSO, NX, private deployment, degraded mode, advanced data sources) start off.
export const FEATURE_SWITCHES = [
  { name: 'ai', defaultValue: '0', purpose: 'AI recognition and chat' },
  { name: 'advancedDataSource', defaultValue: '0', purpose: 'data-source nodes and external connections' },
  { name: 'formVersion', defaultValue: '1', purpose: 'form versions' },
  { name: 'newFormDesigner', defaultValue: '1', purpose: 'current form designer' },
  { name: 'newViewDesigner', defaultValue: '1', purpose: 'current list/view designer' },
  { name: 'associatedOrganization', defaultValue: '1', purpose: 'organisation interconnection' },
  { name: 'sso', defaultValue: '0', purpose: 'single sign-on' },
  { name: 'kanbanView', defaultValue: '1', purpose: 'kanban view' },
  { name: 'cardView', defaultValue: '1', purpose: 'card view' },
  { name: 'businessRule', defaultValue: '1', purpose: 'business rules' },
  { name: 'hierarchyView', defaultValue: '1', purpose: 'hierarchy view and tree forms' },
  { name: 'multiView', defaultValue: '1', purpose: 'several views per form' },
  { name: 'themeV2', defaultValue: '1', purpose: 'second-generation theme' },
  { name: 'dataImport', defaultValue: '1', purpose: 'asynchronous data import' },
  { name: 'nx', defaultValue: '0', purpose: 'NX runtime' },
  { name: 'downgraded', defaultValue: '0', purpose: 'degraded mode with heavy features off' },
  { name: 'formulaControl', defaultValue: '1', purpose: 'formula control' },
  { name: 'newSubTable', defaultValue: '1', purpose: 'current sub-table (grid view) control' },
  { name: 'privateDeployment', defaultValue: '0', purpose: 'private deployment behaviour' },
  { name: 'ganttView', defaultValue: '1', purpose: 'Gantt view' },
  { name: 'fullTextSearch', defaultValue: '1', purpose: 'full-text search' },
  { name: 'smartAction', defaultValue: '1', purpose: 'smart actions' },
] as const satisfies readonly FeatureSwitchDefinition[];

export type FeatureSwitchName = (typeof FEATURE_SWITCHES)[number]['name'];

/** The names sent in the batch request at start. */
export const FEATURE_SWITCH_NAMES = FEATURE_SWITCHES.map((s) => s.name) as readonly FeatureSwitchName[];

/**
 * Default value per switch name. Typed with string keys so callers can look up a name that came over
 * the wire; it has no prototype, so an unknown name (even 'constructor') gives undefined.
 */
export const FEATURE_SWITCH_DEFAULTS: Readonly<Record<string, FeatureSwitchValue>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, FeatureSwitchValue>, Object.fromEntries(FEATURE_SWITCHES.map((s) => [s.name, s.defaultValue]))),
);

/** A switch is on only when its value is exactly '1' (domain.md §9, calls.md §3). */
export function isSwitchOn(value: unknown): boolean {
  return value === '1';
}

/**
 * The switches the product honours today (docs/decisions/0115): the view modes refuse their data and the
 * organisation interconnection refuses its calls when switched off. The admin console lists these only.
 */
export const HONOURED_FEATURE_SWITCHES = ['associatedOrganization', 'kanbanView', 'cardView', 'hierarchyView', 'ganttView'] as const satisfies readonly FeatureSwitchName[];
export type HonouredFeatureSwitch = (typeof HONOURED_FEATURE_SWITCHES)[number];

import type { contracts } from '@tritium/shared';
import { DEFAULT_SCHEMA_FIELDS, STATUS_FIELD_DISPLAY_NAMES, type SystemField } from '@tritium/shared/constants/form';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { CONTROL_TYPES, controlStorage, controlTypeByKey, type AnyControlType } from '@tritium/shared/controls/index';
import type { NodeRow } from '../function-node/function-node.repo.ts';
import { isSubTable, walkControls, type ControlPlace } from './form-model.ts';

// The published schema in the spec's shape (calls.md §3): properties {name, controlType, displayName, extension} and
// childSchemas; the default system fields follow the form's controls (docs/decisions/0006 "Schema").

/** calls.md §3 extension keys, read from the control's options when it has them. */
const EXTENSION_KEYS = ['displayFormat', 'decimalPlaces', 'showMode', 'bindType', 'sourcePropertySchema'] as const;

export interface PresentedProperty extends contracts.SchemaProperty {
  dataType: string;
}

/** The control type that shows each system column (seqNo for SeqNo, creator for CreatedBy, …). */
const SYSTEM_FIELD_TYPES = new Map<string, AnyControlType>();
for (const type of CONTROL_TYPES) {
  const column = type.column;
  if (column && 'systemField' in column && column.systemField) SYSTEM_FIELD_TYPES.set(column.systemField, type);
}
// Columns no control shows: the record's title and who changed it last.
const OTHER_SYSTEM_FIELDS: Partial<Record<SystemField, { typeKey: string; displayName: string }>> = {
  Name: { typeKey: 'textBox', displayName: '数据标题' },
  ModifiedBy: { typeKey: 'user', displayName: '修改人' },
};

function extensionOf(options: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const source = (options ?? {}) as Record<string, unknown>;
  for (const key of EXTENSION_KEYS) if (source[key] !== undefined) out[key] = key === 'bindType' ? String(source[key]).toLowerCase() : source[key];
  return out;
}

function propertyOfControl(place: ControlPlace, name: string, isSystem: boolean): PresentedProperty {
  const options = place.control.options as { displayName?: string };
  return {
    name,
    controlType: place.type.code,
    typeKey: place.type.key,
    displayName: options.displayName ?? place.type.displayName['zh-CN'],
    extension: extensionOf(place.control.options),
    isSystem,
    dataType: controlStorage(place.type, place.control.options).dataType,
  };
}

function systemProperty(field: SystemField, nodeType: number): PresentedProperty | undefined {
  const type = SYSTEM_FIELD_TYPES.get(field) ?? controlTypeByKey(OTHER_SYSTEM_FIELDS[field]?.typeKey ?? '');
  if (!type) return undefined;
  const options = type.options.parse({});
  let displayName = OTHER_SYSTEM_FIELDS[field]?.displayName ?? type.displayName['zh-CN'];
  // calls.md §3: Status reads 流程状态 on workflow forms and 数据状态 on the others.
  if (field === 'Status') displayName = nodeType === FunctionNodeType.WorkflowModule ? STATUS_FIELD_DISPLAY_NAMES.workflow : STATUS_FIELD_DISPLAY_NAMES.data;
  return { name: field, controlType: type.code, typeKey: type.key, displayName, extension: extensionOf(options), isSystem: true, dataType: controlStorage(type, options).dataType };
}

/** Data controls hold a column or look one up; layout, buttons and other data-less controls are not fields. */
function isField(place: ControlPlace): boolean {
  const storage = controlStorage(place.type, place.control.options);
  return storage.dataType !== 'none' && !isSubTable(place);
}

export interface PresentedSchema {
  properties: PresentedProperty[];
  childSchemas: { schemaCode: string; displayName: string; properties: PresentedProperty[] }[];
}

/** Properties of a published definition: Name, the controls in designer order, then the default fields not shown by a control. */
export function schemaPropertiesOf(definition: contracts.FormDefinition, nodeType: number): PresentedSchema {
  const main: PresentedProperty[] = [];
  const children = new Map<string, PresentedSchema['childSchemas'][number]>();
  const shown = new Set<string>();
  walkControls(definition.controls, (place) => {
    if (isSubTable(place)) {
      const options = place.control.options as { displayName: string };
      children.set(place.control.code, { schemaCode: place.control.code, displayName: options.displayName, properties: [] });
      return;
    }
    if (!isField(place)) return;
    const column = controlStorage(place.type, place.control.options).column;
    const systemField = column && 'systemField' in column ? column.systemField : undefined;
    if (place.gridCode) {
      children.get(place.gridCode)?.properties.push(propertyOfControl(place, place.control.code, false));
      return;
    }
    if (systemField) shown.add(systemField);
    const property = propertyOfControl(place, systemField ?? place.control.code, !!systemField);
    // A status control keeping its default name reads as the spec's Status field (流程状态 / 数据状态).
    if (systemField === 'Status' && property.displayName === place.type.displayName['zh-CN']) property.displayName = systemProperty('Status', nodeType)!.displayName;
    main.push(property);
  });
  const name = systemProperty('Name', nodeType);
  const defaults = DEFAULT_SCHEMA_FIELDS.filter((f) => !shown.has(f)).map((f) => systemProperty(f, nodeType));
  return {
    properties: [...(name ? [name] : []), ...main, ...defaults.filter((p): p is PresentedProperty => !!p)],
    childSchemas: [...children.values()],
  };
}

const strip = ({ dataType: _dataType, ...property }: PresentedProperty): contracts.SchemaProperty => property;

export function presentSchema(node: NodeRow, definition: contracts.FormDefinition, version: number): contracts.FormSchemaDto {
  const { properties, childSchemas } = schemaPropertiesOf(definition, node.node_type);
  return {
    schemaCode: node.code,
    appCode: node.app_code,
    displayName: definition.attributes.displayName,
    nodeType: node.node_type,
    version,
    properties: properties.map(strip),
    childSchemas: childSchemas.map((c) => ({ ...c, properties: c.properties.map(strip) })),
  };
}

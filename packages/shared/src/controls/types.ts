/** The shape every control type definition follows (domain.md §3; conventions.md rule 4). */
import type { z } from 'zod';
import type { SystemField } from '../constants/form.ts';
import type { PluginKind } from '../constants/messages.ts';
import type { Locale } from '../errors/catalogue.ts';

/** Every control type of domain.md §3, in the spec's order. The registry holds exactly one definition per key. */
export const CONTROL_TYPE_KEYS = [
  'textBox', 'textArea', 'number', 'dateTime', 'radioList', 'checkboxList', 'dropDown', 'checkbox',
  'areaSelect', 'map', 'user', 'multiUser', 'department', 'multiDepartment', 'attachment', 'photo',
  'gridView', 'seqNo', 'creator', 'owner', 'ownerDepartment', 'createdTime', 'modifiedTime', 'label',
  'associationQuery', 'associationQueryMulti', 'associatedProperty', 'formula', 'button', 'handSign',
  'ocr', 'advancedButton', 'eSign', 'batchScan', 'faceRecognition', 'rollup', 'dynamic', 'plugin',
  'status', 'groupTitle', 'layout', 'description', 'tab',
] as const;
export type ControlTypeKey = (typeof CONTROL_TYPE_KEYS)[number];

/** Designer palette groups, in palette order (ui.md: 基础控件, 系统控件, 高级控件, 布局控件). */
export const CONTROL_GROUPS = ['basic', 'system', 'advanced', 'layout'] as const;
export type ControlGroup = (typeof CONTROL_GROUPS)[number];

export type LocalizedName = Readonly<Record<Locale, string>>;

export const CONTROL_GROUP_NAMES: Readonly<Record<ControlGroup, LocalizedName>> = {
  basic: { 'zh-CN': '基础控件', 'en-US': 'Basic' },
  system: { 'zh-CN': '系统控件', 'en-US': 'System' },
  advanced: { 'zh-CN': '高级控件', 'en-US': 'Advanced' },
  layout: { 'zh-CN': '布局控件', 'en-US': 'Layout' },
};

/**
 * What a control's value is. `none`: the control holds no data; `lookup`: it shows a value read from
 * another row and stores nothing itself. Every other data type has a column.
 */
export const CONTROL_DATA_TYPES = [
  'string', 'text', 'decimal', 'int', 'datetime', 'bool', 'strings', 'user', 'users', 'unit', 'units',
  'address', 'location', 'file', 'files', 'children', 'reference', 'references', 'json', 'lookup', 'none',
] as const;
export type ControlDataType = (typeof CONTROL_DATA_TYPES)[number];

/** PostgreSQL column types used in the i_<schemaCode> tables. Ids are text, as everywhere in the engine schema. */
export type ControlSqlType =
  | 'text' | `varchar(${number})` | 'numeric' | 'integer' | 'timestamptz' | 'boolean' | 'jsonb' | 'text[]';

/** One column of the form's own table; system controls read the system column instead of adding one. */
export interface ScalarColumn {
  readonly sqlType: ControlSqlType;
  readonly systemField?: SystemField;
}
/** A sub-table: rows live in a child table i_<childSchemaCode> keyed by ParentObjectId. */
export interface ChildTableColumn {
  readonly childTable: true;
}
export type ControlColumn = ScalarColumn | ChildTableColumn;

/** The data type and column a control instance ends up with (formula and rollup depend on bindType). */
export interface ControlStorage {
  readonly dataType: ControlDataType;
  readonly column: ControlColumn | null;
}

/** Where a control may be dropped besides the form's root. */
export interface ControlPlacement {
  readonly subTable: boolean;
  readonly tab: boolean;
  readonly layout: boolean;
  /** At most one per form (system controls: they show a single system column). */
  readonly onlyOne?: boolean;
}

/** Limits from domain.md §5, §9; each value comes from constants/limits.ts. */
export interface ControlLimits {
  readonly maxLength?: number;
  readonly maxOptions?: number;
  readonly maxPerForm?: number;
  readonly maxFiles?: number;
  readonly maxItems?: number;
  readonly maxUploadSizeMb?: number;
}

/** Outside services a control needs; the runtime reports the control as unavailable when it is not configured. */
export type ControlService = Extract<PluginKind, 'ocr' | 'eSign' | 'faceRecognition'> | 'plugin' | 'connector';

/** What a container control holds: a list of controls (sub-table columns, layout cells) or tab panes. */
export type ControlChildren = 'controls' | 'panes';

/** Inputs displayText may need beyond the value; every field has a default. */
export interface DisplayContext {
  /** Default zh-CN. Only words such as yes/no and status names depend on it. */
  readonly locale?: Locale;
  /** IANA zone dates are shown in; default Asia/Shanghai. */
  readonly timeZone?: string;
  /** Name of a user or department; the id is shown when this is missing or returns nothing. */
  unitName?(id: string): string | undefined;
  /** Title of an associated row; the ObjectId is shown when this is missing or returns nothing. */
  objectName?(objectId: string): string | undefined;
}

export type ValueOf<V extends z.ZodType | null> = V extends z.ZodType ? z.output<V> : never;

export interface ControlTypeDefinition<
  K extends ControlTypeKey = ControlTypeKey,
  O extends z.ZodType = z.ZodType,
  V extends z.ZodType | null = z.ZodType | null,
> {
  readonly key: K;
  /** Stable number: the product's own code where it has one (see registry.ts). */
  readonly code: number;
  readonly group: ControlGroup;
  readonly displayName: LocalizedName;
  readonly dataType: ControlDataType;
  /** null for controls that hold no data. */
  readonly column: ControlColumn | null;
  /** The control's attributes; `options.parse({})` gives a new control as the designer drops it. */
  readonly options: O;
  /** A stored value, without emptiness: null/undefined mean empty and are handled by the caller. */
  readonly value: V;
  /** Text of a value for lists and exports; '' when empty (the UI shows `--`). */
  displayText(value: ValueOf<V> | null | undefined, options: z.output<O>, context?: DisplayContext): string;
  /** Only for types whose storage depends on their options; otherwise `dataType` and `column` hold. */
  storageFor?(options: z.output<O>): ControlStorage;
  /**
   * Settings a dropped control still needs before it works (option keys), e.g. an association query without its
   * target form; the designer's "incomplete" list (POST /v1/formdesign/incomplete). Absent: nothing is required.
   */
  missingSettings?(options: z.output<O>): readonly string[];
  /**
   * An input value in any format the product accepts (e.g. "2023-10-18" for a date) → the stored format; what it cannot
   * read goes back unchanged for `value` to refuse. Every entry point calls it through controlFromInput (input-values.ts).
   */
  fromInput?(input: unknown): unknown;
  /**
   * A rule of a value the value schema accepted that depends on the options (a number's decimal places): the problem in
   * zh-CN, or null. Checked on every save and as people type (check-value.ts); a value is refused, never adjusted.
   */
  valueRule?(value: ValueOf<V>, options: z.output<O>): string | null;
  /** The items a value must be among (radio, drop-down, checkbox list); null when any text is accepted. */
  choices?(options: z.output<O>): readonly string[] | null;
  /**
   * Its values come from a short list (the items of a single choice, yes/no): reports may group by the value itself and
   * keep counts per value (the dashboards' pre-aggregation, docs/decisions/0074). A checkbox list is not: it holds sets.
   */
  readonly fewValues?: boolean;
  readonly limits?: ControlLimits;
  readonly placement: ControlPlacement;
  readonly children?: ControlChildren;
  readonly service?: ControlService;
}

/** Any registered definition, whatever its options and value. */
export type AnyControlType = ControlTypeDefinition<ControlTypeKey, z.ZodType, z.ZodType | null>;

/** Identity helper that keeps each definition's literal key, options and value types. */
export function defineControlType<K extends ControlTypeKey, O extends z.ZodType, V extends z.ZodType | null>(
  definition: ControlTypeDefinition<K, O, V>,
): ControlTypeDefinition<K, O, V> {
  return definition;
}

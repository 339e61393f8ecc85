import type { z } from 'zod';
import type { ViewMode } from '../constants/views.ts';
import type { FeatureSwitchName } from '../constants/feature-switches.ts';

/** What a mode needs to know of a field to say whether it may play a role (a ViewField's subset). */
export interface ModeFieldInfo {
  code: string;
  controlType: string;
  dataType: string;
  /** Association fields: the form they point to. */
  targetSchemaCode?: string;
}

/** What a field must be to play a role; the designer offers only such fields, the server refuses others. */
export type FieldKind = 'any' | 'text' | 'date' | 'group' | 'option' | 'number' | 'image' | 'location' | 'selfParent';

/** A setting of a mode that names one field (or a list of fields). */
export interface FieldRole {
  /** The settings key. */
  key: string;
  kind: FieldKind;
  required: boolean;
  /** The key holds a list of field codes rather than one. */
  many?: boolean;
}

/**
 * One view mode (domain.md §3 "View modes"): its number, the settings it keeps (a zod schema with defaults), the
 * fields those settings name and what each must be, and the feature switch that turns it on (domain.md §9).
 * The designer, the runtime and the server read this one entry (docs/decisions/0047).
 */
export interface ViewModeDefinition<S extends z.ZodType = z.ZodType> {
  mode: ViewMode;
  /** A stable name used for message keys and folders. */
  key: string;
  settings: S;
  fieldRoles: readonly FieldRole[];
  featureSwitch?: FeatureSwitchName;
}

import type { AnyControlType, ControlTypeKey } from '@tritium/shared/controls/index';
import { CHOICE_FIELDS } from './choice-fields.tsx';
import type { AnyFieldKind } from './field-types.ts';
import { OTHER_FIELDS } from './other-fields.tsx';
import { REFERENCE_FIELDS } from './reference-fields.tsx';
import { ASSOCIATED_PROPERTY_FIELDS } from './reference/associated-property-field.tsx';
import { RICH_FIELDS } from './rich-fields.ts';
import { TEXT_FIELDS } from './text-fields.tsx';
import { UNIT_FIELDS } from './unit-fields.tsx';

/** One field kind per control type that holds or shows a value (layout controls are drawn by the form body). */
const KINDS: Partial<Record<ControlTypeKey, AnyFieldKind>> = {
  ...TEXT_FIELDS,
  ...CHOICE_FIELDS,
  ...UNIT_FIELDS,
  ...REFERENCE_FIELDS,
  ...ASSOCIATED_PROPERTY_FIELDS,
  ...OTHER_FIELDS,
  ...RICH_FIELDS,
};

/** The kind of a control type; none for system fields, computed and looked-up values, shown by their display text. */
export function fieldKindFor(type: AnyControlType): AnyFieldKind | undefined {
  return KINDS[type.key];
}

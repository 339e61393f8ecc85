/** The rich field kinds of the form runtime: region, map, files, photos, hand signature (issue "Form runtime and business data"). */
import type { ControlTypeKey } from '@tritium/shared/controls/index';
import { areaField } from './area-field.tsx';
import type { FieldKind } from './field-types.ts';
import { fileField } from './file-field.tsx';
import { handSignField } from './hand-sign-field.tsx';
import { mapField } from './map-field.tsx';
import { photoField } from './photo-field.tsx';

export const RICH_FIELDS: Partial<Record<ControlTypeKey, FieldKind<any>>> = {
  areaSelect: areaField,
  map: mapField,
  attachment: fileField,
  photo: photoField,
  handSign: handSignField,
};

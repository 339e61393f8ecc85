/**
 * The control-type registry: one definition per control type (domain.md §3), read by the designer, the
 * runtime, list views, import/export and the server.
 *
 * Codes. Types the product numbers keep the product's numbers (its designer ControlType catalogue, which
 * the form layout item types share): 1–16 basic, 101–104 layout, 201–207 system, 301–306 advanced.
 * Types it does not number get 1000 + the group's hundred + a running number, well clear of the
 * product's range: 1101 tab; 1201 status; 1301 OCR, 1302 advanced button, 1303 e-sign, 1304 batch scan,
 * 1305 face recognition, 1306 rollup, 1307 dynamic, 1308 plugin. Codes are stored: never renumber.
 */
import type { z } from 'zod';
import { plainText } from './display.ts';
import type { AnyControlType, ControlGroup, ControlStorage, ControlTypeKey, DisplayContext } from './types.ts';
import { advancedButtonControl } from './advanced-button.ts';
import { areaSelectControl } from './area-select.ts';
import { associatedPropertyControl } from './associated-property.ts';
import { associationQueryControl } from './association-query.ts';
import { associationQueryMultiControl } from './association-query-multi.ts';
import { attachmentControl } from './attachment.ts';
import { batchScanControl } from './batch-scan.ts';
import { buttonControl } from './button.ts';
import { checkboxControl } from './checkbox.ts';
import { checkboxListControl } from './checkbox-list.ts';
import { createdTimeControl } from './created-time.ts';
import { creatorControl } from './creator.ts';
import { dateTimeControl } from './date-time.ts';
import { departmentControl } from './department.ts';
import { descriptionControl } from './description.ts';
import { dropDownControl } from './drop-down.ts';
import { dynamicControl } from './dynamic.ts';
import { eSignControl } from './e-sign.ts';
import { faceRecognitionControl } from './face-recognition.ts';
import { formulaControl } from './formula.ts';
import { gridViewControl } from './grid-view.ts';
import { groupTitleControl } from './group-title.ts';
import { handSignControl } from './hand-sign.ts';
import { labelControl } from './label.ts';
import { layoutControl } from './layout.ts';
import { mapControl } from './map.ts';
import { modifiedTimeControl } from './modified-time.ts';
import { multiDepartmentControl } from './multi-department.ts';
import { multiUserControl } from './multi-user.ts';
import { numberControl } from './number.ts';
import { ocrControl } from './ocr.ts';
import { ownerControl } from './owner.ts';
import { ownerDepartmentControl } from './owner-department.ts';
import { photoControl } from './photo.ts';
import { pluginControl } from './plugin.ts';
import { radioListControl } from './radio-list.ts';
import { rollupControl } from './rollup.ts';
import { seqNoControl } from './seq-no.ts';
import { statusControl } from './status.ts';
import { tabControl } from './tab.ts';
import { textAreaControl } from './text-area.ts';
import { textBoxControl } from './text-box.ts';
import { userControl } from './user.ts';

/** Every control type, grouped in palette order (basic, system, advanced, layout). */
export const CONTROL_TYPES = [
  // basic
  textBoxControl, textAreaControl, numberControl, dateTimeControl, radioListControl, checkboxListControl,
  dropDownControl, checkboxControl, areaSelectControl, mapControl, userControl, multiUserControl,
  departmentControl, multiDepartmentControl, attachmentControl, photoControl,
  // system
  seqNoControl, creatorControl, ownerControl, ownerDepartmentControl, createdTimeControl, modifiedTimeControl,
  statusControl, labelControl,
  // advanced
  associationQueryControl, associationQueryMultiControl, associatedPropertyControl, formulaControl,
  rollupControl, buttonControl, advancedButtonControl, handSignControl, ocrControl, eSignControl,
  batchScanControl, faceRecognitionControl, dynamicControl, pluginControl,
  // layout
  groupTitleControl, layoutControl, descriptionControl, gridViewControl, tabControl,
] as const;

export type ControlTypeMap = { [D in (typeof CONTROL_TYPES)[number] as D['key']]: D };

/** The parsed options of one control type. */
export type ControlOptions<K extends ControlTypeKey> = z.output<ControlTypeMap[K]['options']>;

const byKey = new Map<string, AnyControlType>(CONTROL_TYPES.map((type) => [type.key, type]));
const byCode = new Map<number, AnyControlType>(CONTROL_TYPES.map((type) => [type.code, type]));

export function controlTypeByKey<K extends ControlTypeKey>(key: K): ControlTypeMap[K];
export function controlTypeByKey(key: string): AnyControlType | undefined;
export function controlTypeByKey(key: string): AnyControlType | undefined {
  return byKey.get(key);
}

export function controlTypeByCode(code: number): AnyControlType | undefined {
  return byCode.get(code);
}

export function controlTypesInGroup(group: ControlGroup): AnyControlType[] {
  return CONTROL_TYPES.filter((type) => type.group === group);
}

/** The data type and column of one control instance, given its parsed options. */
export function controlStorage(type: AnyControlType, options: unknown): ControlStorage {
  return type.storageFor?.(options) ?? { dataType: type.dataType, column: type.column };
}

/** Option keys a control instance still needs before it works; [] when complete. */
export function controlMissingSettings(type: AnyControlType, options: unknown): readonly string[] {
  return type.missingSettings?.(options) ?? [];
}

/**
 * Text of a stored value of one control instance, for lists and exports. Values that do not fit the
 * control type (older data, hand-edited rows) are shown as they are rather than dropped; associated
 * properties are formatted by the control type of the field they show.
 */
export function controlDisplayText(
  control: { readonly type: string; readonly options: unknown },
  value: unknown,
  context?: DisplayContext,
): string {
  if (value == null) return '';
  const type = byKey.get(control.type);
  if (!type) return plainText(value, context);
  if (type.dataType === 'lookup') return lookupText(control.options, value, context);
  if (!type.value?.safeParse(value).success) return plainText(value, context);
  return type.displayText(value, control.options, context);
}

function lookupText(options: unknown, value: unknown, context?: DisplayContext): string {
  const source = (options as { sourcePropertySchema?: { controlType?: string } | null } | null)?.sourcePropertySchema;
  const type = source?.controlType ? byKey.get(source.controlType) : undefined;
  if (!type || type.dataType === 'lookup' || !type.value?.safeParse(value).success) return plainText(value, context);
  // The source field's own options live in the other form; its type's defaults are close enough for text.
  return type.displayText(value, type.options.parse({}), context);
}

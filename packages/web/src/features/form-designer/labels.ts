import type { TFunction } from 'i18next';
import en from 'zod/v4/locales/en.js';
import zhCNZod from 'zod/v4/locales/zh-CN.js';
import { CONTROL_GROUP_NAMES, controlTypeByKey, type ControlGroup } from '@tritium/shared/controls/index';
import { currentLocale, i18n } from '../../lib/i18n.ts';
import type { zhCN } from '../../locales/zh-CN.ts';

type Catalogue = typeof zhCN.formDesigner;

// Option keys and enum values come from the registry's schemas; the catalogue names the ones it knows and
// the rest show as they are (a new option appears at once, under its key, until it gets a name).
const has = (key: string) => i18n.exists(key);

/** The label of an option key (displayName → 标题). */
export function optionLabel(t: TFunction, key: string): string {
  const full = `formDesigner.options.${key}`;
  return has(full) ? t(full as `formDesigner.options.${keyof Catalogue['options']}`) : key;
}

/** The label of an option value (Email → 邮箱); formats such as "yyyy-mm-dd" read as they are. */
export function valueLabel(t: TFunction, value: string | number): string {
  const text = String(value);
  if (!/^[\w-]+$/.test(text)) return text;
  const full = `formDesigner.values.${text}`;
  return has(full) ? t(full as `formDesigner.values.${keyof Catalogue['values']}`) : text;
}

/** A control type's name in the current language, from the registry. */
export function controlTypeName(typeKey: string): string {
  const type = controlTypeByKey(typeKey);
  return type ? type.displayName[currentLocale()] : typeKey;
}

/** A palette group's name in the current language, from the registry. */
export const controlGroupName = (group: ControlGroup) => CONTROL_GROUP_NAMES[group][currentLocale()];

/** The name a control goes by on the canvas: its title, or its type's name while the title is empty. */
export function controlName(control: { type: string; options: Record<string, unknown> }): string {
  const title = control.options.displayName;
  return typeof title === 'string' && title.trim() ? title.trim() : controlTypeName(control.type);
}

// zod's own words for problems a schema gives no message for ("too small"), in the person's language.
const ZOD_LOCALES = { 'zh-CN': zhCNZod(), 'en-US': en() };
export const zodErrorMap = () => ZOD_LOCALES[currentLocale()].localeError;

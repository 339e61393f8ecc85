import { ERRORS, type ErrorName, type Locale } from './catalogue.ts';

/**
 * A catalogue message with its `{name}` places filled from an error's detail (e.g. a field's display name), in the
 * locale asked for; a place the detail does not fill is left out rather than shown in braces.
 */
export function errorText(name: ErrorName, locale: Locale, detail?: Readonly<Record<string, unknown>>): string {
  const template: string = locale === 'en-US' ? ERRORS[name].en : ERRORS[name].zh;
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = detail?.[key];
    return value == null ? '' : Array.isArray(value) ? value.join(locale === 'en-US' ? ', ' : '、') : String(value);
  });
}

import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

/**
 * dayjs in the page's language. Only pages past sign-in show dates, so this loads with the workbench part of the
 * catalogue (lib/i18n.ts loadWorkbenchCatalogue), not with the sign-in page (docs/decisions/0084).
 */
const DAYJS_LOCALES: Record<string, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

export function setDayjsLocale(locale: string): void {
  dayjs.locale(DAYJS_LOCALES[locale] ?? 'zh-cn');
}

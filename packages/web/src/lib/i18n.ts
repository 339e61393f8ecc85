import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { zhCN } from '../locales/zh-CN.ts';
import { enUS } from '../locales/en-US.ts';

export const LOCALES = ['zh-CN', 'en-US'] as const;
export type AppLocale = (typeof LOCALES)[number];
// ui.md: Chinese first; English is a second catalogue.
export const DEFAULT_LOCALE: AppLocale = 'zh-CN';

const STORAGE_KEY = 'tritium.locale';

function isAppLocale(value: unknown): value is AppLocale {
  return (LOCALES as readonly unknown[]).includes(value);
}

function storedLocale(): AppLocale {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isAppLocale(value) ? value : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

const DAYJS_LOCALES: Record<AppLocale, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  lng: storedLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  // React escapes text itself.
  interpolation: { escapeValue: false },
  // Catalogues are bundled, so the first render already has its text.
  initAsync: false,
  returnNull: false,
});
dayjs.locale(DAYJS_LOCALES[currentLocale()]);

export function currentLocale(): AppLocale {
  return isAppLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

export async function changeLocale(locale: AppLocale): Promise<void> {
  await i18n.changeLanguage(locale);
  dayjs.locale(DAYJS_LOCALES[locale]);
  document.documentElement.lang = locale;
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

/** Translation outside React (API client, router). Components use useTranslation(). */
export const t = i18n.t.bind(i18n) as typeof i18n.t;

import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale as AntdLocale } from 'antd/es/locale';
import antdZhCN from 'antd/es/locale/zh_CN';
import { zhCNEntry } from '../locales/zh-CN-entry.ts';

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

/**
 * What a language needs beyond its catalogue: antd's texts and, for English, the English text of a server error code
 * (the server writes zh-CN). zh-CN's come with the first page; English's with its catalogue.
 */
interface LocaleExtras {
  antd: AntdLocale;
  serverMessage?: (code: number, message: string | undefined) => string | undefined;
}
const extras: Partial<Record<AppLocale, LocaleExtras>> = { 'zh-CN': { antd: antdZhCN } };

/**
 * The catalogue comes in two parts (docs/decisions/0036): the sign-in part, which the first page carries in zh-CN,
 * and the workbench part, loaded with the first route past sign-in (loadWorkbenchCatalogue). English is loaded
 * only when chosen. Each loader is its own chunk.
 */
type Part = 'entry' | 'workbench';
const PARTS: Record<AppLocale, Record<Part, () => Promise<object>>> = {
  'zh-CN': {
    entry: async () => zhCNEntry,
    workbench: () => import('../locales/zh-CN-workbench.ts').then((m) => m.zhCNWorkbench),
  },
  'en-US': {
    entry: () =>
      Promise.all([import('../locales/en-US-entry.ts'), import('antd/es/locale/en_US'), import('@tritium/shared/errors/catalogue')]).then(
        ([catalogue, antd, errors]) => {
          extras['en-US'] = {
            antd: antd.default,
            serverMessage: (code, message) => {
              const known = errors.getErrorByCode(code);
              return known && (!message || message === known.zh) ? known.en : message;
            },
          };
          return catalogue.enUSEntry;
        },
      ),
    workbench: () => import('../locales/en-US-workbench.ts').then((m) => m.enUSWorkbench),
  },
};

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCNEntry } },
  lng: storedLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  // Parts are added as they load (PARTS); a language without its bundle yet falls back to zh-CN's.
  partialBundledLanguages: true,
  // React escapes text itself.
  interpolation: { escapeValue: false },
  // The zh-CN sign-in part is bundled, so the first render already has its text.
  initAsync: false,
  returnNull: false,
});

const loading = new Map<string, Promise<void>>();
let workbenchWanted = false;

function loadPart(locale: AppLocale, part: Part): Promise<void> {
  const key = `${locale}/${part}`;
  let promise = loading.get(key);
  if (!promise) {
    promise = PARTS[locale][part]().then((resources) => {
      i18n.addResourceBundle(locale, 'translation', resources, true, true);
    });
    // A failed chunk may be fetched again on the next call.
    promise.catch(() => loading.delete(key));
    loading.set(key, promise);
  }
  return promise;
}

/** The parts the pages opened so far need, in `locale`. */
async function loadParts(locale: AppLocale): Promise<void> {
  await Promise.all([loadPart(locale, 'entry'), ...(workbenchWanted ? [loadPart(locale, 'workbench')] : [])]);
}

/** dayjs's language setter, loaded with the workbench part: the sign-in pages show no dates (docs/decisions/0084). */
let dayjsLocale: Promise<(locale: string) => void> | undefined;

function loadDayjsLocale(): Promise<(locale: string) => void> {
  if (!dayjsLocale) {
    dayjsLocale = import('./dayjs-locale.ts').then((m) => m.setDayjsLocale);
    // A failed chunk may be fetched again on the next call.
    dayjsLocale.catch(() => (dayjsLocale = undefined));
  }
  return dayjsLocale;
}

/** Loads the workbench part of the catalogue (in the current language, and later in any chosen one), and dayjs's. */
export function loadWorkbenchCatalogue(): Promise<void> {
  workbenchWanted = true;
  return Promise.all([loadParts(currentLocale()), loadDayjsLocale().then((set) => set(currentLocale()))]).then(() => undefined);
}

/** Resolves when the stored language's catalogue is loaded: main.tsx renders after it (at once for zh-CN). */
export const localeReady: Promise<void> = loadParts(currentLocale());

export function currentLocale(): AppLocale {
  return isAppLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** antd's texts (pagination, pickers, modals) in `locale`; zh-CN's until another language has loaded. */
export function antdLocale(locale: string): AntdLocale {
  return extras[isAppLocale(locale) ? locale : DEFAULT_LOCALE]?.antd ?? antdZhCN;
}

/** The server speaks zh-CN; in another language a known error code shows that language's text. */
export function localizeServerMessage(code: number | string | undefined, message: string | undefined): string | undefined {
  const translate = extras[currentLocale()]?.serverMessage;
  return translate && typeof code === 'number' ? translate(code, message) : message;
}

export async function changeLocale(locale: AppLocale): Promise<void> {
  await loadParts(locale);
  await i18n.changeLanguage(locale);
  if (workbenchWanted) (await loadDayjsLocale())(locale);
  document.documentElement.lang = locale;
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

/** Translation outside React (API client, router). Components use useTranslation(). */
export const t = i18n.t.bind(i18n) as typeof i18n.t;

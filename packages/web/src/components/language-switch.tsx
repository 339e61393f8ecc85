import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale, type AppLocale } from '../lib/i18n.ts';

/** 中文 / English: each language is named in itself so anyone can find their own. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  return (
    <Segmented<AppLocale>
      size="small"
      aria-label={t('common.language.label')}
      value={currentLocale()}
      onChange={(locale) => void changeLocale(locale)}
      options={[
        { label: t('common.language.zh'), value: 'zh-CN' },
        { label: t('common.language.en'), value: 'en-US' },
      ]}
    />
  );
}

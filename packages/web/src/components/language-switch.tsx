import { useId, useState, type CSSProperties } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale, type AppLocale } from '../lib/i18n.ts';

// Hidden yet focusable and announced: the native radios give the arrow keys and the radio roles.
const VISUALLY_HIDDEN: CSSProperties = { position: 'absolute', inset: 0, width: '100%', height: '100%', margin: 0, opacity: 0, cursor: 'pointer' };

/** Focused from the keyboard (a click focuses too, without a ring); engines without the selector say no. */
function focusVisible(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return false;
  }
}

/**
 * 中文 / English: each language is named in itself so anyone can find their own. Drawn like antd's small Segmented
 * from the theme's tokens (a radio group of two), without Segmented and its motion code on the sign-in page
 * (docs/decisions/0084).
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const name = useId();
  // The keyboard's focus ring on the label, as antd draws it (the radio itself is invisible).
  const [focused, setFocused] = useState<AppLocale>();
  const current = currentLocale();
  const options: { label: string; value: AppLocale }[] = [
    { label: t('common.language.zh'), value: 'zh-CN' },
    { label: t('common.language.en'), value: 'en-US' },
  ];
  const labelHeight = token.controlHeightSM - token.lineWidthBold * 2;
  return (
    <div
      role="radiogroup"
      aria-label={t('common.language.label')}
      style={{ display: 'inline-flex', padding: token.lineWidthBold, background: token.colorBgLayout, borderRadius: token.borderRadiusSM, fontSize: token.fontSize }}
    >
      {options.map((option) => {
        const selected = option.value === current;
        return (
          <label
            key={option.value}
            style={{
              position: 'relative',
              borderRadius: token.borderRadiusXS,
              cursor: 'pointer',
              color: selected ? token.colorText : token.colorTextLabel,
              background: selected ? token.colorBgElevated : undefined,
              boxShadow: selected ? token.boxShadowTertiary : undefined,
              minHeight: labelHeight,
              lineHeight: `${labelHeight}px`,
              padding: `0 ${token.controlPaddingHorizontalSM - token.lineWidth}px`,
              whiteSpace: 'nowrap',
              ...(focused === option.value ? { outline: `${token.lineWidthFocus}px solid ${token.colorPrimaryBorder}`, outlineOffset: 1 } : {}),
            }}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={selected}
              onChange={() => void changeLocale(option.value)}
              onFocus={(event) => setFocused(focusVisible(event.currentTarget) ? option.value : undefined)}
              onBlur={() => setFocused(undefined)}
              style={VISUALLY_HIDDEN}
            />
            {option.label}
          </label>
        );
      })}
    </div>
  );
}

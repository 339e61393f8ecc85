import { Segmented, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { webModeOf, type ModeKey } from '../modes/registry.tsx';

/** The list toolbar's switcher between the modes a view may be shown in (docs/decisions/0047). */
export function ModeSwitcher({ modes, value, onChange, compact }: { modes: number[]; value: number; onChange: (mode: number) => void; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Segmented aria-label={t('viewModes.switcher')} value={value} onChange={(v) => onChange(Number(v))} block={compact}
      options={modes.map((mode) => {
        const entry = webModeOf(mode);
        const label = t(`viewModes.modes.${entry.definition.key as ModeKey}`);
        return { value: mode, icon: entry.icon, label: compact ? label : <Tooltip title={label}><span>{label}</span></Tooltip> };
      })} />
  );
}

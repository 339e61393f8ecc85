import { Alert, Card, Flex, Input, Segmented, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldFits } from '@tritium/shared/view-modes/index';
import type { ViewField, ViewSetting } from '../api/list-view-api.ts';
import { webModeOf, type ModeKey, type RoleKey } from './registry.tsx';

// The view designer's panel for a mode's settings (docs/decisions/0047), drawn from the registry: one field picker per
// field role (offering only the fields that fit it), then the mode's choices and texts.

interface Props {
  schemaCode: string;
  view: ViewSetting;
  fields: ViewField[];
  onChange: (patch: Partial<ViewSetting>) => void;
}

export function ModeSettingsPanel({ schemaCode, view, fields, onChange }: Props) {
  const { t } = useTranslation();
  const mode = webModeOf(view.mode);
  const { definition } = mode;
  if (!definition.fieldRoles.length && !mode.extras.length) return null;
  const settings = (view.settings ?? {}) as Record<string, unknown>;
  const set = (key: string, value: unknown) => {
    const next = { ...settings, [key]: value };
    if (value === undefined || (Array.isArray(value) && !value.length)) delete next[key];
    onChange({ settings: next });
  };
  const modeName = t(`viewModes.modes.${definition.key as ModeKey}`);
  return (
    <Card size="small" title={t('viewModes.settings', { mode: modeName })}>
      <Flex vertical gap="small" role="group" aria-label={t('viewModes.settings', { mode: modeName })}>
        {mode.query === 'none' && <Alert type="info" showIcon title={t('viewModes.notBuiltHint')} />}
        {definition.fieldRoles.map((role) => {
          const label = t(`viewModes.roles.${role.key as RoleKey}`);
          const options = fields.filter((f) => fieldFits(role.kind, f, schemaCode)).map((f) => ({ value: f.code, label: f.title }));
          const value = settings[role.key];
          const missing = role.required && (value === undefined || value === '') && !(role.key === 'titleField');
          return (
            <Flex key={role.key} gap="small" align="center" wrap>
              <Typography.Text style={{ width: 88 }}>{label}</Typography.Text>
              <Select aria-label={label} style={{ minWidth: 220, flex: 1, maxWidth: 420 }} allowClear={!role.required || role.key === 'titleField'}
                mode={role.many ? 'multiple' : undefined} value={value as string | string[] | undefined} placeholder={role.key === 'titleField' ? t('listView.designer.untitled') : t('viewModes.pickField')}
                status={missing ? 'error' : undefined} options={options} onChange={(v: string | string[] | undefined) => set(role.key, v)}
                notFoundContent={t('viewModes.noFitField', { role: label })} />
            </Flex>
          );
        })}
        {mode.extras.map((extra) => (
          <Flex key={extra.key} gap="small" align="center" wrap>
            <Typography.Text style={{ width: 88 }}>{t(`viewModes.${extra.label}`)}</Typography.Text>
            {extra.kind === 'choice' ? (
              <Segmented aria-label={t(`viewModes.${extra.label}`)} value={(settings[extra.key] as string | number | undefined) ?? (definition.settings.parse({ ...requiredStubs(definition.fieldRoles), ...settings }) as Record<string, string | number>)[extra.key]}
                onChange={(v) => set(extra.key, v)} options={extra.values.map((v) => ({ value: v, label: typeof v === 'string' && extra.label !== 'radius' ? t(`viewModes.layouts.${v}`, { defaultValue: v }) : String(v) }))} />
            ) : (
              <Input aria-label={t(`viewModes.${extra.label}`)} style={{ maxWidth: 420 }} value={(settings[extra.key] as string | undefined) ?? ''} onChange={(e) => set(extra.key, e.target.value || undefined)} />
            )}
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}

/** Placeholder codes for required field roles, so a schema's defaults can be read before the fields are chosen. */
function requiredStubs(roles: readonly { key: string; required: boolean; many?: boolean }[]): Record<string, unknown> {
  return Object.fromEntries(roles.filter((r) => r.required).map((r) => [r.key, r.many ? [] : 'x']));
}

/** Whether every required field role of the view's mode is chosen (the save button waits for it). */
export function modeSettingsComplete(view: ViewSetting): boolean {
  const settings = (view.settings ?? {}) as Record<string, unknown>;
  return webModeOf(view.mode).definition.fieldRoles.every((r) => !r.required || r.key === 'titleField' || (settings[r.key] !== undefined && settings[r.key] !== ''));
}

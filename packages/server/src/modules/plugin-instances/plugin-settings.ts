import type { PluginTemplate } from '@tritium/shared/plugins/catalogue';
import { AppError } from '../../lib/app-error.ts';

// An install or settings change checked against the template's fields (docs/decisions/0123): the first problem is
// refused with its catalogue error, so the administrator reads which field and why.

export interface CheckedSettings {
  /** The settings that are not secret, trimmed, numbers as numbers. */
  settings: Record<string, unknown>;
  /** The secrets given (non-empty only); the others keep what is stored. */
  secrets: Record<string, string>;
}

const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** `storedSecrets`: the secret keys already stored (a required secret may be left out then). */
export function checkSettings(
  template: PluginTemplate,
  given: Record<string, unknown>,
  givenSecrets: Record<string, string>,
  storedSecrets: readonly string[],
): CheckedSettings {
  const fields = new Map(template.settings.map((f) => [f.key, f]));
  for (const key of [...Object.keys(given), ...Object.keys(givenSecrets)]) {
    if (!fields.has(key)) throw new AppError('PluginSettingUnknown', { detail: { key } });
  }
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const field of template.settings) {
    const detail = { label: field.label['zh-CN'], key: field.key };
    if (field.kind === 'secret') {
      if (field.key in given) throw new AppError('PluginSettingUnknown', { detail: { key: field.key } });
      const value = (givenSecrets[field.key] ?? '').trim();
      if (value) secrets[field.key] = value;
      else if (field.required && !storedSecrets.includes(field.key)) throw new AppError('PluginSettingRequired', { detail });
      continue;
    }
    if (field.key in givenSecrets) throw new AppError('PluginSettingUnknown', { detail: { key: field.key } });
    const raw = given[field.key];
    const text = raw === null || raw === undefined ? '' : typeof raw === 'string' ? raw.trim() : String(raw);
    if (!text) {
      if (field.required) throw new AppError('PluginSettingRequired', { detail });
      continue;
    }
    if (field.kind === 'url' && !isHttpUrl(text)) throw new AppError('PluginSettingNotUrl', { detail });
    if (field.kind === 'select' && !field.choices?.some((c) => c.value === text)) throw new AppError('PluginSettingNotChoice', { detail });
    if (field.kind === 'number') {
      const number = typeof raw === 'number' ? raw : Number(text);
      if (!Number.isFinite(number)) throw new AppError('PluginSettingNotNumber', { detail });
      settings[field.key] = number;
      continue;
    }
    settings[field.key] = text;
  }
  return { settings, secrets };
}

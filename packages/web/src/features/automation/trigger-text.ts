import type { TFunction } from 'i18next';
import type { AutomationTrigger } from '@tritium/shared/automation/index';
import type { SourceFields } from '../rule-values/source-fields.ts';
import { formatDateTime } from '../../lib/date-format.ts';

/** A trigger in words for the list: "「到期日」前3天 09:00", "每天，从 2026-12-01 09:00 起". */
export function describeTrigger(trigger: AutomationTrigger, fields: SourceFields, t: TFunction): string {
  const name = (code: string) => fields.main.find((f) => f.code === code)?.name ?? code;
  switch (trigger.type) {
    case 'changing':
      return trigger.to !== undefined && trigger.to !== null && trigger.to !== ''
        ? t('automation.describe.changingTo', { field: name(trigger.field), to: String(trigger.to) })
        : t('automation.describe.changing', { field: name(trigger.field) });
    case 'date': {
      const days = Math.abs(trigger.offsetDays);
      const offset = trigger.offsetDays === 0 ? t('automation.describe.sameDay') : trigger.offsetDays < 0 ? t('automation.describe.before', { days }) : t('automation.describe.after', { days });
      return t('automation.describe.date', { field: name(trigger.field), offset, time: trigger.time });
    }
    case 'timing':
      return t('automation.describe.timing', { cycle: t(`automation.cycles.${trigger.cycle}`), start: formatDateTime(trigger.start) });
    case 'button':
      return t('automation.describe.button', { label: trigger.label });
    default:
      return t(`automation.triggers.${trigger.type}`);
  }
}

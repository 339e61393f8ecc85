import { Checkbox, Flex, InputNumber, Select, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { TIMEOUT_ACTIONS, TIME_LIMIT_UNITS, timeLimitOf, type TimeLimit } from '@tritium/shared/workflow/index';
import { UserPicker } from '../../../components/org-picker/index.ts';
import { useDesignContext } from '../model/design-context.ts';
import type { Activity } from '../model/template-model.ts';

type Participative = Extract<Activity, { type: 'Fill' | 'Approve' }>;

const DEFAULT_LIMIT: TimeLimit = { amount: 24, unit: 'hours', onTimeout: 'remind' };

/**
 * A node's time limit (办理时限, docs/decisions/0042): from an item's arrival, calendar hours or working days (Monday to
 * Friday, China time); what its timeout does — remind, approve, reject (approve nodes), transfer to a user, escalate to
 * the holder's manager; and urges every N hours until the item is done. Saving writes `timeLimit` and drops the older
 * `timeLimitHours` (read as hours with a reminder).
 */
export function TimeLimitSettings({ activity, onChange }: { activity: Participative; onChange: (patch: Partial<Participative>) => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { names, remember } = useDesignContext();
  const limit = timeLimitOf(activity);
  const set = (next: TimeLimit | null) => onChange({ timeLimit: next, timeLimitHours: undefined });
  const patch = (p: Partial<TimeLimit>) => set({ ...(limit ?? DEFAULT_LIMIT), ...p });
  const actions = TIMEOUT_ACTIONS.filter((a) => a !== 'reject' || activity.type === 'Approve');

  return (
    <Flex vertical gap={token.paddingXS}>
      <Checkbox checked={!!limit} onChange={(e) => set(e.target.checked ? DEFAULT_LIMIT : null)}>
        {t('workflowDesigner.timeLimit.enabled')}
      </Checkbox>
      {limit && (
        <>
          <Flex gap={4} align="center">
            <InputNumber
              size="small"
              aria-label={t('workflowDesigner.timeLimit.amount')}
              min={limit.unit === 'workingDays' ? 1 : 0.5}
              max={8760}
              step={limit.unit === 'workingDays' ? 1 : 0.5}
              precision={limit.unit === 'workingDays' ? 0 : 1}
              value={limit.amount}
              onChange={(v) => typeof v === 'number' && v > 0 && patch({ amount: v })}
              style={{ width: 90 }}
            />
            <Select
              size="small"
              aria-label={t('workflowDesigner.timeLimit.unit')}
              value={limit.unit}
              style={{ width: 110 }}
              options={TIME_LIMIT_UNITS.map((u) => ({ value: u, label: t(`workflowDesigner.timeLimit.units.${u}`) }))}
              onChange={(unit) => patch({ unit, amount: unit === 'workingDays' ? Math.max(1, Math.round(limit.amount)) : limit.amount })}
            />
          </Flex>
          {limit.unit === 'workingDays' && (
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {t('workflowDesigner.timeLimit.workingDaysHint')}
            </Typography.Text>
          )}
          <Typography.Text type="secondary">{t('workflowDesigner.timeLimit.onTimeout')}</Typography.Text>
          <Select
            size="small"
            aria-label={t('workflowDesigner.timeLimit.onTimeout')}
            value={limit.onTimeout}
            options={actions.map((a) => ({ value: a, label: t(`workflowDesigner.timeLimit.actions.${a}`) }))}
            onChange={(onTimeout) => patch({ onTimeout, transferTo: onTimeout === 'transfer' ? limit.transferTo : undefined })}
          />
          {limit.onTimeout === 'transfer' && (
            <UserPicker
              aria-label={t('workflowDesigner.timeLimit.transferTo')}
              placeholder={t('workflowDesigner.timeLimit.transferTo')}
              value={limit.transferTo ? { id: limit.transferTo, name: names[limit.transferTo] ?? limit.transferTo } : null}
              onChange={(picked) => {
                if (picked) remember([picked]);
                patch({ transferTo: picked?.id });
              }}
            />
          )}
          <Flex gap={4} align="center">
            <Checkbox checked={!!limit.urgeEveryHours} onChange={(e) => patch({ urgeEveryHours: e.target.checked ? 4 : undefined })}>
              {t('workflowDesigner.timeLimit.urge')}
            </Checkbox>
            {!!limit.urgeEveryHours && (
              <>
                <InputNumber
                  size="small"
                  aria-label={t('workflowDesigner.timeLimit.urgeEvery')}
                  min={1}
                  max={720}
                  precision={0}
                  value={limit.urgeEveryHours}
                  onChange={(v) => typeof v === 'number' && v > 0 && patch({ urgeEveryHours: v })}
                  style={{ width: 70 }}
                />
                <Typography.Text>{t('workflowDesigner.timeLimit.hours')}</Typography.Text>
              </>
            )}
          </Flex>
        </>
      )}
    </Flex>
  );
}

import { Flex, InputNumber, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DisapproveTarget, ExitRule } from '@tritium/shared/workflow/index';
import type { Activity } from '../model/template-model.ts';

/** A count or a percentage of the participants. */
export function ExitRuleInput({ value, onChange, label }: { value: ExitRule; onChange: (v: ExitRule) => void; label: string }) {
  const { t } = useTranslation();
  return (
    <Flex gap="small" align="center">
      <Select
        size="small"
        style={{ width: 110 }}
        aria-label={`${label} ${t('workflowDesigner.exit.kind')}`}
        value={value.type}
        onChange={(type: ExitRule['type']) => onChange(type === 'count' ? { type, value: 1 } : { type, value: 100 })}
        options={(['count', 'percentage'] as const).map((k) => ({ value: k, label: t(`workflowDesigner.exit.kinds.${k}`) }))}
      />
      <InputNumber
        size="small"
        aria-label={label}
        min={1}
        max={value.type === 'percentage' ? 100 : 1000}
        precision={0}
        value={value.value}
        onChange={(v) => onChange({ ...value, value: v ?? 1 })}
        suffix={value.type === 'percentage' ? '%' : t('workflowDesigner.exit.people')}
      />
    </Flex>
  );
}

/** Exits, order and the disapprove target of a Fill or Approve node. */
export function ExitSettings({ activity, onChange }: { activity: Extract<Activity, { type: 'Fill' | 'Approve' }>; onChange: (patch: Partial<Activity>) => void }) {
  const { t } = useTranslation();
  const isApprove = activity.type === 'Approve';
  return (
    <Flex vertical gap="small">
      <Typography.Text type="secondary">{t('workflowDesigner.exit.method')}</Typography.Text>
      <Select
        size="small"
        aria-label={t('workflowDesigner.exit.method')}
        value={activity.participateMethod}
        onChange={(participateMethod) => onChange({ participateMethod })}
        options={(['parallel', 'serial'] as const).map((m) => ({ value: m, label: t(`workflowDesigner.exit.methods.${m}`) }))}
      />
      <Typography.Text type="secondary">{t(isApprove ? 'workflowDesigner.exit.approve' : 'workflowDesigner.exit.submit')}</Typography.Text>
      <ExitRuleInput label={t(isApprove ? 'workflowDesigner.exit.approve' : 'workflowDesigner.exit.submit')} value={activity.approveExit} onChange={(approveExit) => onChange({ approveExit })} />
      {isApprove && (
        <>
          <Flex align="center" gap="small">
            <Switch
              size="small"
              checked={!!activity.disapproveExit}
              aria-label={t('workflowDesigner.exit.customDisapprove')}
              onChange={(on) => onChange({ disapproveExit: on ? { type: 'count', value: 1 } : undefined })}
            />
            <Typography.Text type="secondary">{t('workflowDesigner.exit.customDisapprove')}</Typography.Text>
          </Flex>
          {activity.disapproveExit ? (
            <ExitRuleInput label={t('workflowDesigner.exit.disapprove')} value={activity.disapproveExit} onChange={(disapproveExit) => onChange({ disapproveExit })} />
          ) : (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('workflowDesigner.exit.disapproveDefault')}
            </Typography.Text>
          )}
        </>
      )}
    </Flex>
  );
}

/** Where a disapprove goes: the first fill, the previous fill, a chosen node, or the end of the flow. */
export function DisapproveTargetSelect({ value, onChange, activities, self }: { value: DisapproveTarget; onChange: (v: DisapproveTarget) => void; activities: Activity[]; self: string }) {
  const { t } = useTranslation();
  const key = value.type === 'activity' ? `activity:${value.code}` : value.type;
  const nodes = activities.filter((a) => a.code !== self && ['Start', 'Fill', 'Approve', 'End'].includes(a.type));
  return (
    <Select
      size="small"
      aria-label={t('workflowDesigner.exit.target')}
      value={key}
      onChange={(k: string) => onChange(k.startsWith('activity:') ? { type: 'activity', code: k.slice('activity:'.length) } : ({ type: k } as DisapproveTarget))}
      options={[
        ...(['previousFill', 'firstFill', 'rejectFlow'] as const).map((k) => ({ value: k, label: t(`workflowDesigner.exit.targets.${k}`) })),
        ...nodes.map((a) => ({ value: `activity:${a.code}`, label: t('workflowDesigner.exit.targets.activity', { name: a.name }) })),
      ]}
    />
  );
}

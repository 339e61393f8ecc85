import { DatePicker, Flex, Form, Input, InputNumber, Select, TimePicker } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { REPEAT_CYCLES } from '@tritium/shared/automation/index';
import type { AutomationForm } from '../use-automation-form.ts';
import type { TriggerDraft } from './draft.ts';

/** The draft of one trigger type. */
export type Of<T extends TriggerDraft['type']> = Extract<TriggerDraft, { type: T }>;
/** What each trigger type's settings take. */
export interface TriggerSettingsProps<T extends TriggerDraft['type']> {
  trigger: Of<T>;
  onChange: (trigger: Of<T>) => void;
  form: AutomationForm;
}

/** A form item of a settings row: as wide as it may be, wrapping on a phone. */
export const item = { style: { flex: '1 1 200px', marginBottom: 12 } };
/** A typed scalar from a text box: numbers as numbers, empty as absent. */
const scalar = (text: string) => (text.trim() === '' ? undefined : Number.isFinite(Number(text)) ? Number(text) : text);

/** A field changes, optionally from / to a value. */
export function ChangingSettings({ trigger, onChange, form }: TriggerSettingsProps<'changing'>) {
  const { t } = useTranslation();
  return (
    <Flex gap="middle" wrap>
      <Form.Item label={t('automation.trigger.field')} htmlFor="trigger-field" {...item}>
        <Select id="trigger-field" showSearch optionFilterProp="label" value={trigger.field || undefined} options={form.sources.main.map((f) => ({ value: f.code, label: f.name }))}
          onChange={(field: string) => onChange({ ...trigger, field })} />
      </Form.Item>
      <Form.Item label={t('automation.trigger.from')} htmlFor="trigger-from" {...item}>
        <Input id="trigger-from" placeholder={t('automation.trigger.anyValue')} value={trigger.from == null ? '' : String(trigger.from)} onChange={(e) => onChange({ ...trigger, from: scalar(e.target.value) })} />
      </Form.Item>
      <Form.Item label={t('automation.trigger.to')} htmlFor="trigger-to" {...item}>
        <Input id="trigger-to" placeholder={t('automation.trigger.anyValue')} value={trigger.to == null ? '' : String(trigger.to)} onChange={(e) => onChange({ ...trigger, to: scalar(e.target.value) })} />
      </Form.Item>
    </Flex>
  );
}

/** Each record, at a date field's day plus or minus some days, at a time of day. */
export function DateSettings({ trigger, onChange, form }: TriggerSettingsProps<'date'>) {
  const { t } = useTranslation();
  const dates = form.viewFields.filter((f) => f.dataType === 'datetime');
  return (
    <Flex gap="middle" wrap>
      <Form.Item label={t('automation.trigger.dateField')} htmlFor="trigger-date-field" {...item}>
        <Select id="trigger-date-field" value={trigger.field || undefined} options={dates.map((f) => ({ value: f.code, label: f.title }))} onChange={(field: string) => onChange({ ...trigger, field })} />
      </Form.Item>
      <Form.Item label={t('automation.trigger.offsetDays')} htmlFor="trigger-offset" tooltip={t('automation.trigger.offsetHint')} {...item}>
        <InputNumber id="trigger-offset" min={-365} max={365} precision={0} value={trigger.offsetDays ?? 0} style={{ width: '100%' }} onChange={(v) => onChange({ ...trigger, offsetDays: v ?? 0 })} />
      </Form.Item>
      <Form.Item label={t('automation.trigger.time')} htmlFor="trigger-time" {...item}>
        <TimePicker id="trigger-time" format="HH:mm" allowClear={false} value={dayjs(`2000-01-01 ${trigger.time ?? '09:00'}`)} style={{ width: '100%' }}
          onChange={(v) => onChange({ ...trigger, time: (v ?? dayjs('2000-01-01 09:00')).format('HH:mm') })} />
      </Form.Item>
    </Flex>
  );
}

/** A repeat cycle from a start (its time of day and weekday / day set the cycle's) until an optional end. */
export function TimingSettings({ trigger, onChange }: TriggerSettingsProps<'timing'>) {
  const { t } = useTranslation();
  return (
    <Flex gap="middle" wrap>
      <Form.Item label={t('automation.trigger.cycle')} htmlFor="trigger-cycle" {...item}>
        <Select id="trigger-cycle" value={trigger.cycle} options={REPEAT_CYCLES.map((c) => ({ value: c, label: t(`automation.cycles.${c}`) }))} onChange={(cycle) => onChange({ ...trigger, cycle })} />
      </Form.Item>
      <Form.Item label={t('automation.trigger.every')} htmlFor="trigger-every" {...item}>
        <InputNumber id="trigger-every" min={1} max={1000} precision={0} value={trigger.every ?? 1} suffix={t('automation.trigger.everyUnit')} disabled={trigger.cycle === 'once'}
          onChange={(v) => onChange({ ...trigger, every: v ?? 1 })} />
      </Form.Item>
      <Form.Item label={t('automation.trigger.start')} htmlFor="trigger-start" {...item}>
        <DatePicker id="trigger-start" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowClear={false} value={dayjs(trigger.start)} style={{ width: '100%' }}
          onChange={(v) => v && onChange({ ...trigger, start: v.format() })} />
      </Form.Item>
      <Form.Item label={t('automation.trigger.end')} htmlFor="trigger-end" {...item}>
        <DatePicker id="trigger-end" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" value={trigger.end ? dayjs(trigger.end) : null} style={{ width: '100%' }}
          onChange={(v) => onChange({ ...trigger, end: v ? v.format() : null })} />
      </Form.Item>
    </Flex>
  );
}

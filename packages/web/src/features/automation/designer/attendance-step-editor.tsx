import { useState } from 'react';
import { DatePicker, Flex, Form, InputNumber, Radio, Select } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { DepartmentPicker, type PickedUnit } from '../../../components/org-picker/index.ts';
import { FormPicker } from '../../form-designer/options/form-picker.tsx';
import { useTargetFields, type AssociationFields } from '../../rule-values/target-fields-api.ts';
import type { StepOf } from './draft.ts';

type AttendanceStep = StepOf<'attendance'>;
type Settings = contracts.AttendanceStepSettings;
type Mappings = Settings['mappings'];
type TargetField = AssociationFields['fields'][number];

const DAY = 'YYYY-MM-DD';

/** Which target fields each mapping may write, as the server's save check says: a person, a date, texts. */
const MAPPINGS: { key: keyof Mappings; required: boolean; fits: (f: TargetField) => boolean }[] = [
  { key: 'user', required: true, fits: (f) => f.dataType === 'user' },
  { key: 'time', required: true, fits: (f) => f.dataType === 'datetime' },
  { key: 'punchType', required: false, fits: (f) => f.dataType === 'string' || f.dataType === 'text' },
  { key: 'result', required: false, fits: (f) => f.dataType === 'string' || f.dataType === 'text' },
  { key: 'location', required: false, fits: (f) => f.dataType === 'string' || f.dataType === 'text' },
];

/** The stored settings as far as they go: a step saved elsewhere may lack parts, which the server then names. */
function settingsOf(step: AttendanceStep): Settings {
  const s = (step.settings ?? {}) as Partial<Settings>;
  return {
    targetSchemaCode: s.targetSchemaCode ?? '',
    range: s.range ?? { type: 'yesterday' },
    people: s.people ?? { type: 'all' },
    mappings: { ...s.mappings, user: s.mappings?.user ?? '', time: s.mappings?.time ?? '' },
  };
}

/**
 * The attendance step (docs/decisions/0123, chat apps): punches of a range of days from the platform the attendance
 * plugin names, for everyone bound to it or one department, one record each in the target form.
 */
export function AttendanceStepEditor({ step, onChange }: { step: AttendanceStep; onChange: (step: AttendanceStep) => void }) {
  const { t } = useTranslation();
  const settings = settingsOf(step);
  const fields = useTargetFields(settings.targetSchemaCode);
  // The settings keep the department's id only: the name picked is kept here, and a saved step's is looked up.
  const savedId = settings.people.type === 'department' ? settings.people.departmentId : '';
  const [picked, setDepartment] = useState<PickedUnit | null>(null);
  const savedName = useQuery({
    queryKey: ['org', 'names', savedId],
    queryFn: () => apiClient.post<{ departments: { id: string; name: string }[] }>('/v1/org/info/byids', { ids: [savedId] }),
    enabled: !!savedId && !picked,
    staleTime: 60_000,
  });
  const department = picked ?? (savedId ? { id: savedId, name: savedName.data?.departments.find((d) => d.id === savedId)?.name ?? '' } : null);
  const set = (patch: Partial<Settings>) => onChange({ ...step, settings: { ...settings, ...patch } });
  const setRange = (range: Settings['range']) => set({ range });
  const targetFields = (fields.data?.fields ?? []).filter((f) => !f.isSystem);
  const range = settings.range;
  const people = settings.people;
  return (
    <Form layout="vertical" component={false}>
      <Form.Item label={t('automation.step.target')} htmlFor={`${step.id}-target`} style={{ marginBottom: 12 }}>
        <FormPicker id={`${step.id}-target`} value={settings.targetSchemaCode} onChange={(code) => set({ targetSchemaCode: code ?? '', mappings: { user: '', time: '' } })} />
      </Form.Item>
      <Form.Item label={t('automation.step.attendanceRange')} style={{ marginBottom: 12 }}>
        <Flex gap="small" align="center" wrap>
          <Radio.Group value={range.type} aria-label={t('automation.step.attendanceRange')}
            onChange={(e) => {
              const type = e.target.value as Settings['range']['type'];
              const today = dayjs().format(DAY);
              setRange(type === 'lastDays' ? { type, days: 7 } : type === 'fixed' ? { type, from: today, to: today } : { type: 'yesterday' });
            }}
            options={[
              { value: 'yesterday', label: t('automation.step.rangeYesterday') },
              { value: 'lastDays', label: t('automation.step.rangeLastDays') },
              { value: 'fixed', label: t('automation.step.rangeFixed') },
            ]} />
          {range.type === 'lastDays' && (
            <InputNumber aria-label={t('automation.step.rangeDays')} min={1} max={31} precision={0} value={range.days} suffix={t('automation.step.daysUnit')} style={{ width: 120 }}
              // An emptied box keeps the last number: the person is about to type the next one.
              onChange={(days) => days && setRange({ type: 'lastDays', days })} />
          )}
          {range.type === 'fixed' && (
            <DatePicker.RangePicker aria-label={t('automation.step.rangeFixed')} allowClear={false} value={[dayjs(range.from), dayjs(range.to)]}
              onChange={(dates) => dates?.[0] && dates[1] && setRange({ type: 'fixed', from: dates[0].format(DAY), to: dates[1].format(DAY) })} />
          )}
        </Flex>
      </Form.Item>
      <Form.Item label={t('automation.step.attendancePeople')} style={{ marginBottom: 12 }}>
        <Flex gap="small" align="center" wrap>
          <Radio.Group value={people.type} aria-label={t('automation.step.attendancePeople')}
            // A department not yet picked stays empty: the save names it, as it names any setting left out.
            onChange={(e) => set({ people: e.target.value === 'department' ? { type: 'department', departmentId: department?.id ?? '' } : { type: 'all' } })}
            options={[
              { value: 'all', label: t('automation.step.peopleAll') },
              { value: 'department', label: t('automation.step.peopleDepartment') },
            ]} />
          {people.type === 'department' && (
            <div style={{ flex: '1 1 200px', minWidth: 0 }}>
              <DepartmentPicker aria-label={t('automation.step.peopleDepartment')} scope="inner" value={department}
                onChange={(unit) => {
                  setDepartment(unit);
                  set({ people: { type: 'department', departmentId: unit?.id ?? '' } });
                }} />
            </div>
          )}
        </Flex>
      </Form.Item>
      <Form.Item label={t('automation.step.attendanceMappings')} extra={t('automation.step.attendanceMappingsHelp')} style={{ marginBottom: 12 }}>
        <Flex vertical gap="small">
          {MAPPINGS.map(({ key, required, fits }) => (
            <Flex key={key} gap="small" align="center">
              <span style={{ width: 96, flex: 'none' }}>{t(`automation.step.punch.${key}`)}{required ? ' *' : ''}</span>
              <Select aria-label={t(`automation.step.punch.${key}`)} allowClear={!required} showSearch optionFilterProp="label" style={{ flex: 1, minWidth: 0 }}
                placeholder={t(required ? 'automation.step.pickField' : 'automation.step.pickFieldOptional')} loading={fields.isLoading}
                value={settings.mappings[key] || undefined} options={targetFields.filter(fits).map((f) => ({ value: f.code, label: f.displayName }))}
                onChange={(code: string | undefined) => {
                  const mappings = { ...settings.mappings };
                  if (code) mappings[key] = code;
                  else if (!required) delete mappings[key];
                  set({ mappings });
                }} />
            </Flex>
          ))}
        </Flex>
      </Form.Item>
    </Form>
  );
}

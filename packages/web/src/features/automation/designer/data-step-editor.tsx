import { Checkbox, Flex, Form, InputNumber, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AUTOMATION_QUERY_LIMIT, type StepLoop } from '@tritium/shared/automation/index';
import type { FilterGroup } from '@tritium/shared/query/index';
import { MappingRows, MatchRows, useTargetFieldOptions } from '../../rule-values/mapping-rows.tsx';
import type { SourceFields } from '../../rule-values/source-fields.ts';
import { FormPicker } from '../../form-designer/options/form-picker.tsx';
import type { StepDraft, StepOf } from './draft.ts';
import { QueryFilter } from './query-filter.tsx';
import type { StepSources } from './use-step-sources.ts';

type DataStep = StepOf<'insert'> | StepOf<'update'> | StepOf<'remove'> | StepOf<'query'>;

interface DataStepEditorProps {
  step: DataStep;
  onChange: (step: DataStep) => void;
  /** The steps before this one: a loop may run over a query step's records. */
  earlier: readonly StepDraft[];
  fields: SourceFields;
  sources: StepSources;
}

const loopKey = (loop: StepLoop | null | undefined) => (!loop ? '' : loop.type === 'subtable' ? `subtable:${loop.code}` : `query:${loop.stepId}`);
const loopOf = (key: string): StepLoop | null => {
  if (!key) return null;
  const [type, value] = key.split(':') as ['subtable' | 'query', string];
  return type === 'subtable' ? { type, code: value } : { type, stepId: value };
};

/** Insert, update, remove or query records of a form: the target, a loop, match conditions and field mappings (the business rules' rows). */
export function DataStepEditor({ step, onChange, earlier, fields, sources }: DataStepEditorProps) {
  const { t } = useTranslation();
  const targetOptions = useTargetFieldOptions(step.targetSchemaCode);
  const set = (patch: Partial<DataStep>) => onChange({ ...step, ...patch } as DataStep);
  const hasLoop = step.type !== 'query';
  const loops = [
    { value: '', label: t('automation.step.once') },
    ...fields.grids.map((g) => ({ value: `subtable:${g.code}`, label: t('automation.step.loopGrid', { name: g.name }) })),
    ...earlier.filter((s) => s.type === 'query').map((s) => ({ value: `query:${s.id}`, label: t('automation.step.loopQuery', { name: s.name || s.id }) })),
  ];
  const rows = { targetOptions, fields, row: sources.row, extra: sources.extra };
  return (
    <Form layout="vertical" component={false}>
      <Flex gap="middle" wrap>
        <Form.Item label={t('automation.step.target')} htmlFor={`${step.id}-target`} style={{ flex: '1 1 220px', marginBottom: 12 }}>
          <FormPicker id={`${step.id}-target`} value={step.targetSchemaCode} onChange={(code) => set({ targetSchemaCode: code ?? '' })} />
        </Form.Item>
        {hasLoop && (
          <Form.Item label={t('automation.step.forEach')} htmlFor={`${step.id}-loop`} style={{ flex: '1 1 220px', marginBottom: 12 }}>
            <Select id={`${step.id}-loop`} value={loopKey(step.forEach)} options={loops} onChange={(key: string) => set({ forEach: loopOf(key) })} />
          </Form.Item>
        )}
        {step.type === 'query' && (
          <Form.Item label={t('automation.step.limit')} htmlFor={`${step.id}-limit`} style={{ flex: '0 0 120px', marginBottom: 12 }}>
            <InputNumber id={`${step.id}-limit`} min={1} max={AUTOMATION_QUERY_LIMIT} value={step.limit ?? 100} onChange={(limit) => set({ limit: limit ?? 100 })} />
          </Form.Item>
        )}
      </Flex>
      {step.type === 'insert' && (
        <Form.Item label={t('automation.step.status')} style={{ marginBottom: 12 }}>
          <Radio.Group value={step.status ?? 'effective'} onChange={(e) => set({ status: e.target.value })}
            options={[{ value: 'effective', label: t('automation.step.statusEffective') }, { value: 'draft', label: t('automation.step.statusDraft') }]} />
        </Form.Item>
      )}
      {step.type !== 'insert' && <MatchRows conditions={step.match ?? []} onChange={(match) => set({ match })} {...rows} />}
      {step.type === 'query' && (
        <QueryFilter key={step.targetSchemaCode} targetSchemaCode={step.targetSchemaCode} filter={(step.filter as FilterGroup | null | undefined) ?? null} onChange={(filter) => set({ filter })} />
      )}
      {(step.type === 'insert' || step.type === 'update') && (
        <MappingRows mappings={step.mappings} onChange={(mappings) => set({ mappings })} isSetOnly={step.type === 'insert'} {...rows} />
      )}
      {step.type === 'update' && (
        <Checkbox checked={step.upsert ?? false} onChange={(e) => set({ upsert: e.target.checked })}>
          {t('automation.step.upsert')}
        </Checkbox>
      )}
    </Form>
  );
}

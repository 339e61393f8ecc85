import { Button, Flex, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BUSINESS_RULE_OPERATIONS, type RuleCondition, type RuleMapping, type RuleValue } from '@tritium/shared/business-rules/index';
import type { SourceFields } from './source-fields.ts';
import { useTargetFields } from './target-fields-api.ts';
import { ValueInput, type ValueOption } from './value-input.tsx';

// Match conditions and field mappings onto another form's fields: the business rules' editor and the automation
// steps (issue 21) write the same RuleCondition / RuleMapping shapes.

type MappingInput = Omit<RuleMapping, 'op'> & { op?: RuleMapping['op'] };
type Option = { value: string; label: string };

const FIRST: RuleValue = { type: 'field', code: 'ObjectId' };

/** The published main-table fields of a target form a rule may write or match (system ones: SeqNo only). */
export function useTargetFieldOptions(target: string): Option[] {
  const fields = useTargetFields(target);
  return (fields.data?.fields ?? []).filter((f) => !f.isSystem || f.code === 'SeqNo').map((f) => ({ value: f.code, label: f.displayName }));
}

interface SourceProps {
  /** The target form's fields. */
  targetOptions: Option[];
  /** The fields of the record the values are read from. */
  fields: SourceFields;
  /** A sub-table whose row's columns are offered too. */
  row: string | null;
  /** Further values offered (an automation loop's current record). */
  extra?: ValueOption[];
}

/** Target field = value, each of them (update, upsert, delete). */
export function MatchRows({ conditions, onChange, targetOptions, fields, row, extra }: SourceProps & { conditions: RuleCondition[]; onChange: (next: RuleCondition[]) => void }) {
  const { t } = useTranslation();
  return (
    <Section title={t('businessRules.conditions')} disabled={!targetOptions.length} onAdd={() => onChange([...conditions, { field: targetOptions[0]?.value ?? '', value: FIRST }])} addLabel={t('businessRules.addCondition')}>
      {conditions.map((c, i) => (
        <Flex key={i} gap="small" align="center" wrap>
          <Select aria-label={t('businessRules.targetField')} showSearch value={c.field || undefined} options={targetOptions} style={{ width: 180, maxWidth: '100%' }}
            onChange={(field) => onChange(conditions.map((x, j) => (j === i ? { ...x, field } : x)))} />
          <Typography.Text>=</Typography.Text>
          <div style={{ flex: 1, minWidth: 200 }}>
            <ValueInput label={t('businessRules.value')} value={c.value} fields={fields} row={row} extra={extra} onChange={(value) => onChange(conditions.map((x, j) => (j === i ? { ...x, value } : x)))} />
          </div>
          <Button type="text" icon={<DeleteOutlined />} aria-label={t('businessRules.remove')} onClick={() => onChange(conditions.filter((_, j) => j !== i))} />
        </Flex>
      ))}
    </Section>
  );
}

/** Target field ← value: set, or add / subtract on update (`isSetOnly` for inserts). */
export function MappingRows<M extends MappingInput>({ mappings, onChange, targetOptions, fields, row, extra, isSetOnly }: SourceProps & { mappings: M[]; onChange: (next: M[]) => void; isSetOnly: boolean }) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<MappingInput>) => onChange(mappings.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <Section title={t('businessRules.mappings')} disabled={!targetOptions.length} onAdd={() => onChange([...mappings, { field: targetOptions[0]?.value ?? '', op: 'set', value: FIRST } as M])} addLabel={t('businessRules.addMapping')}>
      {mappings.map((m, i) => (
        <Flex key={i} gap="small" align="center" wrap>
          <Select aria-label={t('businessRules.targetField')} showSearch value={m.field || undefined} options={targetOptions} style={{ width: 160, maxWidth: '100%' }} onChange={(field) => set(i, { field })} />
          <Select aria-label={t('businessRules.op')} value={m.op ?? 'set'} style={{ width: 96 }} disabled={isSetOnly}
            options={BUSINESS_RULE_OPERATIONS.map((v) => ({ value: v, label: t(`businessRules.ops.${v}`) }))} onChange={(op) => set(i, { op })} />
          <div style={{ flex: 1, minWidth: 200 }}>
            <ValueInput label={t('businessRules.value')} value={m.value} fields={fields} row={row} extra={extra} onChange={(value) => set(i, { value })} />
          </div>
          <Button type="text" icon={<DeleteOutlined />} aria-label={t('businessRules.remove')} onClick={() => onChange(mappings.filter((_, j) => j !== i))} />
        </Flex>
      ))}
    </Section>
  );
}

/** A list of rows with its add button; `disabled` while the target form's fields are not known yet (nothing to pick). */
function Section({ title, addLabel, onAdd, disabled, children }: { title: string; addLabel: string; onAdd: () => void; disabled: boolean; children: React.ReactNode }) {
  return (
    <Flex vertical gap="small" style={{ marginBottom: 16 }}>
      <Flex justify="space-between" align="center">
        <Typography.Text strong>{title}</Typography.Text>
        <Button size="small" icon={<PlusOutlined />} disabled={disabled} onClick={onAdd}>
          {addLabel}
        </Button>
      </Flex>
      {children}
    </Flex>
  );
}

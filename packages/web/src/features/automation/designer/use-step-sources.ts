import { useQueries } from '@tanstack/react-query';
import { loadTargetFields, targetFieldsKey } from '../../rule-values/target-fields-api.ts';
import type { SourceFields } from '../../rule-values/source-fields.ts';
import type { ValueOption } from '../../rule-values/value-input.tsx';
import type { StepDraft } from './draft.ts';

/** What a step may read besides the trigger record: its loop's sub-table row, and each earlier query step's records (`S1.Code`). */
export interface StepSources {
  /** The sub-table the step loops over (its columns as `Grid.Code`). */
  row: string | null;
  /** Earlier query steps' fields. */
  extra: ValueOption[];
  /** Every placeholder a template may name, for the 插入字段 menu. */
  placeholders: ValueOption[];
}

export function useStepSources(steps: readonly StepDraft[], index: number, fields: SourceFields): StepSources {
  const queries = steps.slice(0, index).filter((s): s is Extract<StepDraft, { type: 'query' }> => s.type === 'query' && !!s.targetSchemaCode);
  const answers = useQueries({
    queries: queries.map((q) => ({ queryKey: targetFieldsKey(q.targetSchemaCode), queryFn: () => loadTargetFields(q.targetSchemaCode) })),
  });
  const extra = queries.flatMap((q, i) =>
    (answers[i]?.data?.fields ?? []).map((f) => ({ value: `${q.id}.${f.code}`, label: `${q.name || q.id}.${f.displayName}` })),
  );
  const step = steps[index];
  const loop = step && 'forEach' in step ? step.forEach : null;
  const row = loop?.type === 'subtable' ? loop.code : null;
  const grid = fields.grids.find((g) => g.code === row);
  const placeholders = [
    ...fields.main.map((f) => ({ value: f.code, label: f.name })),
    ...(grid ? grid.columns.map((c) => ({ value: `${grid.code}.${c.code}`, label: `${grid.name}.${c.name}` })) : []),
    ...extra,
  ];
  return { row, extra, placeholders };
}

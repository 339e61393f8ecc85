import { useQuery } from '@tanstack/react-query';
import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';

export type AssociationFields = z.infer<typeof contracts.AssociationFormFieldResult>;

/** Under the business rules' key: the rules' designer and the automations share one cache of each form's fields. */
export const targetFieldsKey = (schemaCode: string) => ['business-rules', 'fields', schemaCode] as const;

/** The published main-table fields of another form (a rule's or a step's target, a rollup's source). */
export const loadTargetFields = (schemaCode: string) =>
  apiClient.post<AssociationFields>('/v1/formdesign/associationform/field', { schemaCode }, { disableBizError: true });

export function useTargetFields(schemaCode: string) {
  return useQuery({ queryKey: targetFieldsKey(schemaCode), queryFn: () => loadTargetFields(schemaCode), enabled: !!schemaCode });
}

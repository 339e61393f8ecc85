import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// The designer's business rules and rollup sources (docs/decisions/0015).

export type AssociationFields = z.infer<typeof contracts.AssociationFormFieldResult>;

export const businessRuleKeys = {
  rules: (schemaCode: string) => ['business-rules', schemaCode] as const,
  fields: (schemaCode: string) => ['business-rules', 'fields', schemaCode] as const,
};

export const businessRulesApi = {
  load: (schemaCode: string) => apiClient.post<contracts.BusinessRuleLoadResult>('/v1/form/businessrule/load', { schemaCode }),
  save: (body: contracts.BusinessRuleSaveBody) => apiClient.post<contracts.BusinessRuleSaveResult>('/v1/form/businessrule/save', body),
  /** The published main-table fields of another form (a rule's target, a rollup's source). */
  fields: (schemaCode: string) => apiClient.post<AssociationFields>('/v1/formdesign/associationform/field', { schemaCode }, { disableBizError: true }),
};

import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';
import { loadTargetFields, targetFieldsKey, type AssociationFields } from '../../rule-values/target-fields-api.ts';

// The designer's business rules and rollup sources (docs/decisions/0015).

export type { AssociationFields };

export const businessRuleKeys = {
  rules: (schemaCode: string) => ['business-rules', schemaCode] as const,
  fields: targetFieldsKey,
};

export const businessRulesApi = {
  load: (schemaCode: string) => apiClient.post<contracts.BusinessRuleLoadResult>('/v1/form/businessrule/load', { schemaCode }),
  save: (body: contracts.BusinessRuleSaveBody) => apiClient.post<contracts.BusinessRuleSaveResult>('/v1/form/businessrule/save', body),
  /** The published main-table fields of another form (a rule's target, a rollup's source). */
  fields: loadTargetFields,
};

import type { contracts } from '@tritium/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client.ts';

// The formula calls the editor uses (docs/decisions/0012): the function catalogue (descriptions, examples) and the
// validation of an expression against a published form (errors with their spans).

export const formulaApi = {
  functions: () => apiClient.get<contracts.FormulaFunctionListResult>('/v1/formula/function/list'),
  validate: (body: contracts.FormulaValidateBody) =>
    apiClient.post<contracts.FormulaValidateResult>('/v1/formula/expression/validate', body, { disableBizError: true, disableSysError: true }),
  schema: (schemaCode: string) => apiClient.get<contracts.FormSchemaDto>('/v1/schema', { query: { schemaCode }, disableBizError: true }),
};

/** The catalogue with descriptions, asked for once an editor is used (`enabled`). */
export function useFormulaFunctions(enabled = true) {
  return useQuery({ queryKey: ['formula', 'functions'], queryFn: formulaApi.functions, staleTime: Infinity, enabled });
}

/** The published fields of another form (an association's), for completion in its data range. */
export function usePublishedSchema(schemaCode: string | null | undefined) {
  return useQuery({ queryKey: ['formula', 'schema', schemaCode], queryFn: () => formulaApi.schema(schemaCode!), enabled: !!schemaCode, staleTime: 60_000, retry: false });
}

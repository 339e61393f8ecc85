import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// Data links and associations (docs/decisions/0016): /v1/form/loaddatalink/batch, /v1/form/association/list and /fill.

export type AssociationListBody = z.input<typeof contracts.AssociationListBody>;

export const linksApi = {
  dataLinks: (schemaCode: string, items: { controlCode: string; values: Record<string, unknown> }[]) =>
    apiClient.post<contracts.DataLinkBatchResult>('/v1/form/loaddatalink/batch', { schemaCode, items }, { disableBizError: true }),
  associationList: (body: AssociationListBody) => apiClient.post<contracts.AssociationListResult>('/v1/form/association/list', body, { disableBizError: true }),
  associationFill: (schemaCode: string, controlCode: string, objectIds: string[]) =>
    apiClient.post<contracts.AssociationFillResult>('/v1/form/association/fill', { schemaCode, controlCode, objectIds }, { disableBizError: true }),
};

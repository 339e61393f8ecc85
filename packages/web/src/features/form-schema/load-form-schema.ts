import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';
import { localCache } from '../../lib/local-cache.ts';

export type FormSchemaDto = z.infer<typeof contracts.FormSchemaDto>;
type LoadSettingResult = z.infer<typeof contracts.LoadSettingResult>;

/**
 * A published form schema, from the browser's cache when the server says it has not changed since
 * (POST /v1/form/loadsetting with the cached timestamp): an unchanged schema is not downloaded again.
 */
export async function loadFormSchema(engineCode: string, schemaCode: string): Promise<FormSchemaDto> {
  const cached = await localCache.get<FormSchemaDto>('schema', engineCode, schemaCode);
  const answer = await apiClient.post<LoadSettingResult>('/v1/form/loadsetting', { schemaCode, ...(cached ? { timestamp: cached.timestamp } : {}) });
  if (answer.notModified && cached) return cached.value;
  if (!answer.schema) throw new Error(`form ${schemaCode}: the server sent no schema`);
  await localCache.set('schema', engineCode, schemaCode, answer.schema, answer.timestamp);
  return answer.schema;
}

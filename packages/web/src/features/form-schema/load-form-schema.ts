import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';
import { localCache } from '../../lib/local-cache.ts';

export type FormSchemaDto = contracts.FormSchemaDto;
/** A published form: its schema (fields) and the control tree the runtime draws. */
export interface PublishedForm {
  schema: contracts.FormSchemaDto;
  definition: contracts.FormDefinition;
}
type LoadSettingResult = contracts.LoadSettingResult;

/**
 * A published form, from the browser's cache when the server says it has not changed since
 * (POST /v1/form/loadsetting with the cached timestamp): an unchanged form is not downloaded again.
 */
export async function loadFormSchema(engineCode: string, schemaCode: string): Promise<PublishedForm> {
  const cached = await localCache.get<PublishedForm>('schema', engineCode, schemaCode);
  const answer = await apiClient.post<LoadSettingResult>(
    '/v1/form/loadsetting',
    { schemaCode, ...(cached ? { timestamp: cached.timestamp } : {}) },
    // The runtime shows a missing or unpublished form itself.
    { disableBizError: true },
  );
  if (answer.notModified && cached?.value.definition) return cached.value;
  if (answer.notModified) return loadFormSchemaFresh(schemaCode);
  if (!answer.schema || !answer.definition) throw new Error(`form ${schemaCode}: the server sent no form`);
  const form = { schema: answer.schema, definition: answer.definition };
  await localCache.set('schema', engineCode, schemaCode, form, answer.timestamp);
  return form;
}

/** A cached record of an older shape: ask without a timestamp. */
async function loadFormSchemaFresh(schemaCode: string): Promise<PublishedForm> {
  const answer = await apiClient.post<LoadSettingResult>('/v1/form/loadsetting', { schemaCode }, { disableBizError: true });
  if (!answer.schema || !answer.definition) throw new Error(`form ${schemaCode}: the server sent no form`);
  return { schema: answer.schema, definition: answer.definition };
}

import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_STORAGE_EXPIRY_HOURS } from '@tritium/shared/constants/limits';
import { ok, stubFetch } from '../../test/fetch-stub.ts';
import { LOCAL_DB_NAME, localCache } from '../../lib/local-cache.ts';
import { loadFormSchema } from './load-form-schema.ts';

const schema = (version: number) => ({ schemaCode: 'order', appCode: 'crm', displayName: '订单', nodeType: 200, version, properties: [], childSchemas: [] });
const definition = { attributes: { displayName: '订单' }, controls: [] };

/** A server holding one published schema; answers notModified when the client's timestamp matches. */
function stubServer(state: { timestamp: number; version: number }) {
  return stubFetch({
    'POST /v1/form/loadsetting': (call) => {
      const { timestamp } = call.body as { timestamp?: number };
      return ok(timestamp === state.timestamp ? { notModified: true, timestamp: state.timestamp } : { notModified: false, timestamp: state.timestamp, schema: schema(state.version), definition });
    },
  });
}

describe('the local schema cache', () => {
  afterEach(async () => {
    await localCache.close();
    indexedDB.deleteDatabase(LOCAL_DB_NAME);
  });

  it('downloads a schema once, then asks with its timestamp and reuses it while it is unchanged', async () => {
    const state = { timestamp: 1000, version: 1 };
    const { callsTo } = stubServer(state);
    expect((await loadFormSchema('alpha01', 'order')).schema.version).toBe(1);
    expect((await loadFormSchema('alpha01', 'order')).schema.version).toBe(1);
    const calls = callsTo('POST', '/v1/form/loadsetting');
    expect(calls.map((c) => c.body)).toEqual([{ schemaCode: 'order' }, { schemaCode: 'order', timestamp: 1000 }]);

    // Published again: the next load gets the new schema and keeps it.
    Object.assign(state, { timestamp: 2000, version: 2 });
    expect((await loadFormSchema('alpha01', 'order')).schema.version).toBe(2);
    expect((await localCache.get('schema', 'alpha01', 'order'))?.timestamp).toBe(2000);
  });

  it('keeps engines apart and drops records older than the expiry', async () => {
    await localCache.set('schema', 'alpha01', 'order', schema(1), 1000, 0);
    expect(await localCache.get('schema', 'beta02', 'order')).toBeUndefined();
    const expiry = LOCAL_STORAGE_EXPIRY_HOURS * 3600_000;
    expect(await localCache.get('schema', 'alpha01', 'order', expiry - 1)).toBeDefined();
    expect(await localCache.get('schema', 'alpha01', 'order', expiry + 1)).toBeUndefined();
    // Dropped, not only hidden.
    expect(await localCache.get('schema', 'alpha01', 'order', 0)).toBeUndefined();
  });
});

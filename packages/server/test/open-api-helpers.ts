import type { FastifyInstance } from 'fastify';
import { call } from './helpers.ts';
import type { OrgClient } from './node-helpers.ts';

// Shared by the open API tests: an Invoke call with the product's headers, and a secret issued through the admin calls.

export async function invokeApi(app: FastifyInstance, engineCode: string | undefined, secret: string | undefined, payload: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (engineCode !== undefined) headers.EngineCode = engineCode;
  if (secret !== undefined) headers.EngineSecret = secret;
  const res = await app.inject({ method: 'POST', url: '/OpenApi/Invoke', headers, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  return { status: res.statusCode, body: res.json() as { Successful: boolean; ErrorMessage: string | null; ErrorCode: number; ReturnData: any; Logined: boolean; DataType: number } };
}

export async function issueSecret(client: OrgClient, name = '对接系统'): Promise<{ id: string; value: string }> {
  const created = await client.post('/v1/engine/secret/create', { name });
  return { id: created.secret.id, value: created.value };
}

export { call };

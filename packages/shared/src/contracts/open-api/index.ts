import { z } from 'zod';

// Engine secrets for the open API (POST /OpenApi/Invoke with the EngineCode / EngineSecret headers), managed by an
// Administrator in the admin console: /v1/engine/secret/list, /create, /revoke (docs/decisions/0021-open-api.md).

/** At most this many active (not revoked) secrets per engine. */
export const ENGINE_SECRET_ACTIVE_LIMIT = 10;

export const EngineSecretCreateBody = z.strictObject({
  /** What the secret is for (shown in the list). */
  name: z.string().trim().min(1).max(50),
});

export const EngineSecretRevokeBody = z.strictObject({
  id: z.uuid(),
});

/** A secret as listed: never the secret itself, only its first and last characters. */
export const EngineSecretDto = z.object({
  id: z.string(),
  name: z.string(),
  /** e.g. `ab12…z9`: enough to recognise it. */
  masked: z.string(),
  createdBy: z.string(),
  createdByName: z.string().nullable(),
  createdTime: z.string(),
  lastUsedTime: z.string().nullable(),
  revokedTime: z.string().nullable(),
});
export type EngineSecretDto = z.infer<typeof EngineSecretDto>;

export const EngineSecretListResult = z.object({ list: z.array(EngineSecretDto), engineCode: z.string() });
export type EngineSecretListResult = z.infer<typeof EngineSecretListResult>;

/** The answer of create: the only time the whole secret is shown. */
export const EngineSecretCreateResult = z.object({ secret: EngineSecretDto, value: z.string() });
export type EngineSecretCreateResult = z.infer<typeof EngineSecretCreateResult>;

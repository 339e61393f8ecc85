import type { Kysely } from 'kysely';
import type { EngineDb } from '../../db/types.ts';
import { contracts } from '@tritium/shared';
import { openSecrets, sealSecrets } from '../notification/channels/secret-box.ts';
import { recordOperation, type OperationActor } from '../audit/oplog.ts';

// The settings of an engine's outside sign-in providers (issue 25), one row per provider name: plain settings as
// JSON, secrets only sealed with the server's secret key (the same key as the notification channels' secrets).

export type EngineExecutor = Kysely<EngineDb>;

export interface StoredProvider {
  enabled: boolean;
  settings: Record<string, unknown>;
  /** Decrypted; empty when none is stored or the key no longer opens them. */
  secrets: Record<string, string>;
  /** A secret is stored but cannot be opened (the server key changed). */
  unreadable: boolean;
}

export async function loadProvider(edb: EngineExecutor, provider: string): Promise<StoredProvider | null> {
  const row = await edb.selectFrom('sign_in_providers').select(['enabled', 'settings', 'secrets']).where('provider', '=', provider).executeTakeFirst();
  if (!row) return null;
  const opened = row.secrets ? openSecrets(row.secrets) : {};
  return { enabled: row.enabled, settings: row.settings, secrets: opened ?? {}, unreadable: opened === undefined };
}

/** Names of secrets as the operation log shows them: each one masked. */
const maskedNames = (names: string[]) => Object.fromEntries(names.map((n) => [n, contracts.MASKED]));

/**
 * Saves a provider's settings; each secret left out or empty keeps the stored one. `edb` is a transaction: the
 * change and its operation log entry (docs/decisions/0113) commit together.
 */
export async function saveProvider(edb: EngineExecutor, provider: string, actor: OperationActor & { userId: string }, input: { enabled: boolean; settings: Record<string, unknown>; secrets: Record<string, string | undefined> }): Promise<void> {
  const existing = await loadProvider(edb, provider);
  const secrets: Record<string, string> = { ...(existing?.secrets ?? {}) };
  const changed = Object.entries(input.secrets).filter(([, value]) => !!value).map(([name]) => name);
  for (const [name, value] of Object.entries(input.secrets)) if (value) secrets[name] = value;
  const values = {
    enabled: input.enabled,
    settings: JSON.stringify(input.settings),
    secrets: Object.keys(secrets).length ? sealSecrets(secrets) : null,
    modified_by: actor.userId,
    modified_time: new Date(),
  };
  await edb
    .insertInto('sign_in_providers')
    .values({ provider, ...values })
    .onConflict((oc) => oc.column('provider').doUpdateSet(values))
    .execute();
  await recordOperation(edb, actor, {
    kind: 'signIn',
    action: existing ? 'update' : 'create',
    objectId: provider,
    objectName: provider,
    before: existing ? { enabled: existing.enabled, ...existing.settings, ...maskedNames(Object.keys(existing.secrets)) } : null,
    after: { enabled: input.enabled, ...input.settings, ...maskedNames(changed) },
  });
}

import { MESSAGE_CATEGORIES, OUTSIDE_CHANNELS, type OutsideChannel } from '@tritium/shared/constants/messages';
import type { contracts } from '@tritium/shared';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// Which outside channels carry a category of message (issue 20): a user's own choice, else the engine's default
// (owner '*'), else none. In-app always carries every message. Robot messages go to group chats: only the engine's
// defaults may name them, and a notice sent to many people reaches a robot once. The choice is made in SQL with the
// messages' insert (notify.ts `addDeliveries`, docs/decisions/0134).

export const ENGINE_DEFAULTS = '*';

type Pref = contracts.CategoryChannels;

const valid = (channels: unknown): OutsideChannel[] => (Array.isArray(channels) ? channels.filter((c): c is OutsideChannel => (OUTSIDE_CHANNELS as readonly string[]).includes(c)) : []);

export async function readPreferences(edb: EngineExecutor, userId: string): Promise<contracts.NotificationPreferenceResult> {
  const rows = await edb.selectFrom('notification_preferences').select(['owner', 'category', 'channels']).where('owner', 'in', [userId, ENGINE_DEFAULTS]).execute();
  const of = (owner: string): Pref[] =>
    MESSAGE_CATEGORIES.flatMap((category) => {
      const row = rows.find((r) => r.owner === owner && r.category === category);
      return row ? [{ category, channels: valid(row.channels) }] : owner === ENGINE_DEFAULTS ? [{ category, channels: [] }] : [];
    });
  return { defaults: of(ENGINE_DEFAULTS), mine: of(userId) };
}

/** Replaces the owner's choices for the categories given (others keep theirs). */
export async function savePreferences(edb: EngineExecutor, owner: string, preferences: readonly Pref[]): Promise<void> {
  if (!preferences.length) return;
  await edb
    .insertInto('notification_preferences')
    .values(preferences.map((p) => ({ owner, category: p.category, channels: JSON.stringify([...new Set(owner === ENGINE_DEFAULTS ? p.channels : p.channels.filter((c) => c !== 'robot'))]) })))
    .onConflict((oc) => oc.columns(['owner', 'category']).doUpdateSet((eb) => ({ channels: eb.ref('excluded.channels') })))
    .execute();
}

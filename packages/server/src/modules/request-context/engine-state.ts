import type { Kysely, Transaction } from 'kysely';
import type { ErrorName } from '@tritium/shared';
import type { EngineRow, PlatformDb } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';

// The engine a request names and whether it may serve it: the request plugin asks this on every request, below the
// engine module (which re-exports it from engine.repo.ts and engine-state.ts).

export async function findEngine(db: Kysely<PlatformDb> | Transaction<PlatformDb>, engineCode: string): Promise<EngineRow | undefined> {
  return (await db.selectFrom('platform.engines').selectAll().where('engine_code', '=', engineCode).executeTakeFirst()) as EngineRow | undefined;
}

/** calls.md §8: an engine that is not normal answers with its own code (200401–200404). */
const STATE_ERRORS: Record<Exclude<EngineRow['state'], 'normal'>, ErrorName> = {
  disabled: 'EngineDisabled',
  migrating: 'EngineMigrating',
  archived: 'EngineArchived',
  allocating: 'EngineAllocating',
};

export function engineStateError(state: EngineRow['state'], status?: number): AppError | undefined {
  if (state === 'normal') return undefined;
  return new AppError(STATE_ERRORS[state], status ? { status } : {});
}

export function assertEngineUsable(engine: Pick<EngineRow, 'state' | 'license_expires'>, status?: number): void {
  const error = engineStateError(engine.state, status);
  if (error) throw error;
  if (engine.license_expires && engine.license_expires.getTime() < Date.now()) throw new AppError('LicenseExpired');
}

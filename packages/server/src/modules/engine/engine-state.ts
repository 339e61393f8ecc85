import type { ErrorName } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { EngineRow } from './engine.repo.ts';

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

import { describe, it, expect } from 'vitest';
import { CONNECTED_ENGINES_PAGING, ENGINE_STATES, ENGINE_TYPES, engineStateLoginCode } from './engine.ts';
import { ERRORS } from '../errors/catalogue.ts';

describe('engine states', () => {
  it('map every blocked state to its login code of calls.md §8', () => {
    expect(ENGINE_STATES.map(engineStateLoginCode)).toEqual([undefined, 200401, 200402, 200403, 200404]);
  });

  it('agree with the error catalogue', () => {
    expect(engineStateLoginCode('disabled')).toBe(ERRORS.EngineDisabled.code);
    expect(engineStateLoginCode('migrating')).toBe(ERRORS.EngineMigrating.code);
    expect(engineStateLoginCode('archived')).toBe(ERRORS.EngineArchived.code);
    expect(engineStateLoginCode('allocating')).toBe(ERRORS.EngineAllocating.code);
  });

  it('give no code for unknown states, even object property names', () => {
    expect(engineStateLoginCode('toString')).toBeUndefined();
    expect(engineStateLoginCode('Disabled')).toBeUndefined();
  });

  it('keep the spec values', () => {
    expect(ENGINE_TYPES).toEqual(['SaaSDevelopment', 'Product', 'PrivateDevelopment']);
    expect(CONNECTED_ENGINES_PAGING).toEqual({ pageIndex: 0, pageSize: 50 });
  });
});

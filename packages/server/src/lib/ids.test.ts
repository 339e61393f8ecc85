import { describe, expect, it } from 'vitest';
import { validate, version } from 'uuid';
import { newId } from './ids.ts';

describe('newId', () => {
  it('makes RFC 9562 version-7 ids whose leading 48 bits are the millisecond they were made in', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(7);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after + 1);
  });

  it('never repeats and sorts in the order the ids were made, across many pool refills', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});

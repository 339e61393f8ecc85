import { describe, expect, it } from 'vitest';
import { VersionedCache } from './versioned-cache.ts';

// The cache's own rules (docs/decisions/0032), without a database.

describe('VersionedCache', () => {
  it('answers an entry only for the version it was stored under', async () => {
    const cache = new VersionedCache<string>();
    let loads = 0;
    const load = (value: string) => async () => {
      loads += 1;
      return value;
    };
    expect(await cache.get('e1', 3, 'k', load('a'))).toBe('a');
    expect(await cache.get('e1', 3, 'k', load('b'))).toBe('a');
    expect(loads).toBe(1);
    expect(await cache.get('e1', 4, 'k', load('c'))).toBe('c');
    expect(await cache.get('e1', 4, 'k', load('d'))).toBe('c');
    // Another engine has its own slot.
    expect(await cache.get('e2', 4, 'k', load('x'))).toBe('x');
    expect(loads).toBe(3);
  });

  it('does not let a load under an older version replace the newer slot', async () => {
    const cache = new VersionedCache<string>();
    await cache.get('e1', 5, 'k', async () => 'new');
    // A request that read version 4 before the change committed: answered from its own load, not kept.
    expect(await cache.get('e1', 4, 'k', async () => 'old')).toBe('old');
    expect(await cache.get('e1', 5, 'k', async () => 'reloaded')).toBe('new');
  });

  it('loads only the missing keys of many, in one call', async () => {
    const cache = new VersionedCache<number>();
    const asked: string[][] = [];
    const load = async (keys: string[]) => {
      asked.push(keys);
      return new Map(keys.map((k) => [k, k.length]));
    };
    await cache.getMany('e1', 1, ['a', 'bb'], load);
    const found = await cache.getMany('e1', 1, ['a', 'bb', 'ccc'], load);
    expect([...found.entries()]).toEqual([['a', 1], ['bb', 2], ['ccc', 3]]);
    expect(asked).toEqual([['a', 'bb'], ['ccc']]);
  });

  it('stays bounded', async () => {
    const cache = new VersionedCache<number>(3, 2);
    for (let i = 0; i < 10; i++) await cache.get('e1', 1, `k${i}`, async () => i);
    let reloaded = 0;
    await cache.get('e1', 1, 'k0', async () => ++reloaded);
    expect(reloaded).toBe(1);
    await cache.get('e2', 1, 'k', async () => 0);
    await cache.get('e3', 1, 'k', async () => 0);
    // e1 was the oldest engine: dropped when the third arrived.
    await cache.get('e1', 1, 'k0', async () => ++reloaded);
    expect(reloaded).toBe(2);
  });
});

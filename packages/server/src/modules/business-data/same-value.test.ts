import { describe, expect, it } from 'vitest';
import { isEmpty, sameValue } from './field-values.ts';

// test-databases: pglite — no database: sameValue is pure.

// sameValue answers without JSON for the common cases (a save's data log compares every field, issue 26); its verdict
// must stay the JSON comparison's, every empty value being the same empty.
const byJson = (a: unknown, b: unknown) => JSON.stringify(isEmpty(a) ? null : a) === JSON.stringify(isEmpty(b) ? null : b);

const VALUES: unknown[] = [
  null, undefined, '', [], 'a', 'b', 'null', '0', 0, -0, 1, 1.5, NaN, Infinity, true, false, ['a'], ['a', 'b'], ['b', 'a'],
  { adcode: '1', adname: 'x' }, { adname: 'x', adcode: '1' }, { a: null }, [null], '2026-01-01T00:00:00.000Z', new Date(0), '1970-01-01T00:00:00.000Z',
];

describe('sameValue', () => {
  it('gives the JSON comparison verdict for every pair of values', () => {
    for (const a of VALUES) for (const b of VALUES) expect([a, b, sameValue(a, b)]).toEqual([a, b, byJson(a, b)]);
  });
});

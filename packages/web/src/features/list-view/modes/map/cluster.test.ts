import { describe, expect, it } from 'vitest';
import { clusterOf } from './cluster.ts';

// The map's clusters (docs/decisions/0047): places close on the screen become one numbered marker at their mean.

describe('map clusters', () => {
  const project = (p: { lat: number; lng: number }) => ({ x: p.lng * 100, y: p.lat * 100 });
  const place = (lat: number, lng: number, item: string) => ({ lat, lng, item });

  it('puts places within a cell of each other together, even across a grid line, and keeps a lone place alone', () => {
    expect(clusterOf([place(0.47, 0.47, 'a'), place(0.49, 0.49, 'b')], project, 48)).toHaveLength(1);
    const clusters = clusterOf([place(0.1, 0.1, 'a'), place(0.2, 0.3, 'b'), place(5, 5, 'c')], project, 48);
    expect(clusters.map((c) => c.items.map((i) => i.item))).toEqual([['a', 'b'], ['c']]);
    expect(clusters[0]).toMatchObject({ lat: 0.15000000000000002, lng: 0.2 });
  });

  it('splits them when the map zooms in (a larger projection)', () => {
    const zoomed = (p: { lat: number; lng: number }) => ({ x: p.lng * 1000, y: p.lat * 1000 });
    expect(clusterOf([place(0.1, 0.1, 'a'), place(0.2, 0.3, 'b')], zoomed, 48)).toHaveLength(2);
  });
});

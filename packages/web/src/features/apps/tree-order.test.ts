import { describe, expect, it } from 'vitest';
import { placeNode, preCodeForDrop } from './tree-order.ts';

const node = (code: string, parentCode: string, sortKey: number) => ({ code, parentCode, sortKey });

describe('tree order', () => {
  it('places a node after preCode among its new siblings and renumbers them', () => {
    const list = [node('a', 'app', 0), node('g', 'app', 1), node('x', 'g', 0), node('y', 'g', 1)];
    const moved = placeNode(list, 'a', 'g', 'x');
    const inGroup = moved.filter((n) => n.parentCode === 'g').sort((p, q) => p.sortKey - q.sortKey).map((n) => n.code);
    expect(inGroup).toEqual(['x', 'a', 'y']);
    expect(moved.find((n) => n.code === 'g')!.sortKey).toBe(1);
  });

  it('places a node first when preCode is empty', () => {
    const list = [node('a', 'app', 0), node('b', 'app', 1), node('c', 'app', 2)];
    expect(placeNode(list, 'c', 'app', '').sort((p, q) => p.sortKey - q.sortKey).map((n) => n.code)).toEqual(['c', 'a', 'b']);
  });

  it('computes preCode for a drop within one list, both directions, and from elsewhere', () => {
    const codes = ['a', 'b', 'c', 'd'];
    expect(preCodeForDrop(codes, 'a', 'c')).toBe('c'); // down: after c
    expect(preCodeForDrop(codes, 'd', 'b')).toBe('a'); // up: before b
    expect(preCodeForDrop(codes, 'c', 'a')).toBe(''); // to the front
    expect(preCodeForDrop(codes, 'z', 'c')).toBe('b'); // from another list: before c
  });
});

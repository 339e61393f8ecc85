import { describe, expect, it } from 'vitest';
import { AREA_MODES } from '../constants/formats.ts';
import { areaCodePath, areaName, areaPath, areaTree, isKnownAreaCode } from './areas.ts';

describe('administrative divisions', () => {
  it('is a tree of provinces, cities and counties with 6-digit codes', () => {
    const tree = areaTree('P-C-T');
    expect(tree.length).toBeGreaterThanOrEqual(34);
    const guangdong = tree.find((node) => node.name === '广东省')!;
    expect(guangdong.code).toBe('440000');
    const shenzhen = guangdong.children!.find((node) => node.name === '深圳市')!;
    expect(shenzhen.code).toBe('440300');
    expect(shenzhen.children!.find((node) => node.name === '南山区')?.code).toBe('440305');
    const codes = (nodes: typeof tree): string[] => nodes.flatMap((node) => [node.code, ...codes(node.children ?? [])]);
    expect(codes(tree).every((code) => /^\d{6}$/.test(code))).toBe(true);
  });

  it('stops at the mode’s depth', () => {
    expect(areaTree('P').every((province) => !province.children)).toBe(true);
    const cities = areaTree('P-C').flatMap((province) => province.children ?? []);
    expect(cities.length).toBeGreaterThan(300);
    expect(cities.every((city) => !city.children)).toBe(true);
    // The same tree is handed out again, not rebuilt.
    expect(areaTree('P-C')).toBe(areaTree('P-C'));
  });

  it('names a code from the province down', () => {
    expect(areaPath('440305')).toEqual(['广东省', '深圳市', '南山区']);
    expect(areaPath('440300')).toEqual(['广东省', '深圳市']);
    expect(areaPath('440000')).toEqual(['广东省']);
    expect(areaName('440305')).toBe('广东省 深圳市 南山区');
    expect(areaCodePath('440305')).toEqual(['440000', '440300', '440305']);
    expect(areaPath('999999')).toEqual([]);
    expect(areaPath('4403')).toEqual([]);
  });

  it('knows a code only at the depth its mode picks', () => {
    expect(isKnownAreaCode('440305', 'P-C-T')).toBe(true);
    expect(isKnownAreaCode('440300', 'P-C-T')).toBe(false);
    expect(isKnownAreaCode('440300', 'P-C')).toBe(true);
    expect(isKnownAreaCode('440305', 'P-C')).toBe(false);
    expect(isKnownAreaCode('440000', 'P')).toBe(true);
    expect(isKnownAreaCode('440300', 'P')).toBe(false);
    for (const mode of AREA_MODES) {
      expect(isKnownAreaCode('999999', mode)).toBe(false);
      expect(isKnownAreaCode('abc', mode)).toBe(false);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { zhCN } from './zh-CN.ts';
import { enUS } from './en-US.ts';

function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return { [prefix]: value };
  return Object.entries(value).reduce<Record<string, unknown>>(
    (all, [key, inner]) => ({ ...all, ...flatten(inner, prefix ? `${prefix}.${key}` : key) }),
    {},
  );
}

// Every source file of the app, as text: the keys it names with t('…') must exist (docs/decisions/0026).
const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../locales/**'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

const placeholders = (text: unknown) => [...String(text).matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe('message catalogues', () => {
  const zh = flatten(zhCN);
  const en = flatten(enUS);

  it('zh-CN and en-US have exactly the same keys', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
  });

  it('every message is a non-empty string with the same placeholders in both languages', () => {
    for (const [key, text] of Object.entries(zh)) {
      expect(typeof text, key).toBe('string');
      expect((text as string).trim(), key).not.toBe('');
      expect(placeholders(en[key]), key).toEqual(placeholders(text));
    }
  });

  it('every key the code names with t(…) exists in both languages', () => {
    const named = Object.entries(sources).flatMap(([file, text]) => [...text.matchAll(/\bt\(\s*['"]([a-zA-Z]\w*(?:\.\w+)+)['"]/g)].map((m) => `${file} ${m[1]}`));
    expect(named.length).toBeGreaterThan(500);
    expect(named.filter((entry) => !(entry.split(' ')[1] in zh) || !(entry.split(' ')[1] in en))).toEqual([]);
  });
});

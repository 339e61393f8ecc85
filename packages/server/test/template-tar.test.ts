import { readFileSync } from 'node:fs';
import { describe, expect, it, inject } from 'vitest';
import { sql } from 'kysely';
import { templateTar } from './template-tar.ts';
import { openTestDatabase } from './helpers.ts';

/** Entry names and sizes of a tar (ustar), read back independently of templateTar's own loop. */
function entries(tar: Uint8Array): Map<string, number> {
  const found = new Map<string, number>();
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = Buffer.from(tar.subarray(offset, offset + 512));
    if (header.every((b) => b === 0)) break;
    const name = header.toString('latin1', 0, 100).split('\0')[0]!;
    const size = parseInt(header.toString('latin1', 124, 136).split('\0')[0]!.trim() || '0', 8);
    found.set(name, size);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return found;
}

/** A ustar of the given entries, each with 600 bytes of data (two blocks: the padding is exercised). */
function tarOf(names: string[]): Uint8Array {
  const parts: Buffer[] = [];
  for (const name of names) {
    const header = Buffer.alloc(512);
    header.write(name, 0, 'latin1');
    header.write('00000001130\0', 124, 'latin1'); // 600 in octal
    header.write('ustar\0', 257, 'latin1');
    parts.push(header, Buffer.alloc(1024, name.charCodeAt(1)));
  }
  return Buffer.concat([...parts, Buffer.alloc(1024)]);
}

describe('the server files’ template (test/template-tar.ts)', () => {
  it('leaves out the template databases’ files and the WAL segments after the current one, and keeps the rest whole', () => {
    const tar = tarOf(['/base/1/1255', '/base/1/', '/base/4/2600', '/base/5/1255', '/base/15/1', '/pg_wal/000000010000000000000002', '/pg_wal/000000010000000000000003', '/pg_wal/000000010000000000000001', '/global/pg_control']);
    const kept = templateTar(tar, { templateDatabases: [1, 4], currentWalSegment: '000000010000000000000002' });
    expect([...entries(kept).keys()]).toEqual(['/base/1/', '/base/5/1255', '/base/15/1', '/pg_wal/000000010000000000000002', '/pg_wal/000000010000000000000001', '/global/pg_control']);
    expect(entries(kept).get('/base/5/1255')).toBe(600);
    expect(kept.length).toBe(6 * 1536 + 1024);
    // Nothing to leave out: the same bytes.
    expect(Buffer.compare(Buffer.from(templateTar(tar, { templateDatabases: [], currentWalSegment: 'F'.repeat(24) })), Buffer.from(tar))).toBe(0);
  });

  it('is the run’s PGlite template, and a database started from it answers', async () => {
    const names = [...entries(new Uint8Array(readFileSync(inject('pgliteTemplate')))).keys()];
    expect(names.some((n) => /^\/?base\/5\/\d+$/.test(n))).toBe(true);
    expect(names.filter((n) => /^\/?base\/(1|4)\/./.test(n))).toEqual([]);
    expect(names.filter((n) => /^\/?pg_wal\/[0-9A-F]{24}$/.test(n))).toHaveLength(1);
    const database = await openTestDatabase();
    try {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = 'platform'`.execute(database.db);
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      await database.close();
    }
  });
});

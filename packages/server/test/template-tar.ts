/**
 * The migrated template's tar without what no file's database reads. Every file's PGlite unpacks the whole tar into
 * memory before it starts (docs/testing.md "Server files' databases"), so the template leaves out:
 * - the files of template0 and template1 (their folders stay, empty): the platform creates no databases, engines are
 *   schemas — about a third of the tar's 2,000 files;
 * - WAL segments after the one being written: files PostgreSQL made ready for later, 16 MB each.
 * ustar: a 512-byte header per entry, its data padded to 512 bytes, two empty blocks at the end.
 */
export function templateTar(tar: Uint8Array, options: { templateDatabases: number[]; currentWalSegment: string }): Uint8Array {
  const databaseFile = new RegExp(`^/?base/(${options.templateDatabases.join('|')})/.`);
  const laterSegment = (name: string) => {
    const segment = /^\/?pg_wal\/([0-9A-F]{24})$/.exec(name)?.[1];
    return segment !== undefined && segment > options.currentWalSegment;
  };
  const text = (from: number, to: number) => Buffer.from(tar.subarray(from, to)).toString('latin1').replace(/\0.*$/s, '');
  const kept: Uint8Array[] = [];
  let offset = 0;
  while (offset + 512 <= tar.length && tar.subarray(offset, offset + 512).some((b) => b !== 0)) {
    const prefix = text(offset + 257, offset + 262) === 'ustar' ? text(offset + 345, offset + 500) : '';
    const name = prefix ? `${prefix}/${text(offset, offset + 100)}` : text(offset, offset + 100);
    const size = parseInt(text(offset + 124, offset + 136).trim() || '0', 8);
    const length = 512 + Math.ceil(size / 512) * 512;
    const left = (options.templateDatabases.length > 0 && databaseFile.test(name)) || laterSegment(name);
    if (!left) kept.push(tar.subarray(offset, offset + length));
    offset += length;
  }
  kept.push(new Uint8Array(1024));
  return Buffer.concat(kept);
}

/**
 * The data folder's tar without the files of the databases given (their folders stay, empty): every file's PGlite unpacks the whole tar (about
 * 2,000 files) before it starts, and template0 and template1 — a third of the files — are never opened by the platform
 * (it creates no databases; engines are schemas). ustar: a 512-byte header per entry, its data padded to 512 bytes.
 */
export function withoutDatabases(tar: Uint8Array, oids: number[]): Uint8Array {
  const skip = new RegExp(`^/?base/(${oids.join('|')})/.`); // their files; the empty folders stay
  const text = (from: number, to: number) => Buffer.from(tar.subarray(from, to)).toString('latin1').replace(/\0.*$/s, '');
  const kept: Uint8Array[] = [];
  let offset = 0;
  while (offset + 512 <= tar.length && tar.subarray(offset, offset + 512).some((b) => b !== 0)) {
    const prefix = text(offset + 257, offset + 262) === 'ustar' ? text(offset + 345, offset + 500) : '';
    const name = prefix ? `${prefix}/${text(offset, offset + 100)}` : text(offset, offset + 100);
    const size = parseInt(text(offset + 124, offset + 136).trim() || '0', 8);
    const length = 512 + Math.ceil(size / 512) * 512;
    if (!oids.length || !skip.test(name)) kept.push(tar.subarray(offset, offset + length));
    offset += length;
  }
  kept.push(new Uint8Array(1024));
  return Buffer.concat(kept);
}

import { randomFillSync, randomInt } from 'node:crypto';

// ObjectIds: UUID v7 (RFC 9562), sortable and index-friendly (api-conventions.md). Laid out as the uuid package's v7
// lays them out — 48 bits of milliseconds, a 31-bit sequence that starts at random each millisecond and counts up
// within it (so ids made in one millisecond sort in the order they were made), then 42 random bits — but with the
// random bytes taken from a pool filled 256 ids at a time: the package asks the system for 16 bytes per id, which was
// 5 % of a CreateBizObjects of 100 (two ids a record, issue 26).

const POOL_IDS = 256;
const pool = new Uint8Array(16 * POOL_IDS);
let used = POOL_IDS;
let lastMs = -Infinity;
let seq = 0;
const HEX = Array.from({ length: 256 }, (_, i) => (i + 0x100).toString(16).slice(1));

export function newId(): string {
  if (used === POOL_IDS) {
    randomFillSync(pool);
    used = 0;
  }
  const r = used++ * 16;
  let ms = Date.now();
  if (ms > lastMs) {
    seq = ((pool[r + 6]! & 0x7f) << 24) | (pool[r + 7]! << 16) | (pool[r + 8]! << 8) | pool[r + 9]!;
    lastMs = ms;
  } else {
    seq = (seq + 1) | 0;
    if (seq === 0) lastMs++;
    ms = lastMs;
  }
  const h = HEX;
  return (
    h[(ms / 0x10000000000) & 0xff]! + h[(ms / 0x100000000) & 0xff]! + h[(ms / 0x1000000) & 0xff]! + h[(ms / 0x10000) & 0xff]! + '-' +
    h[(ms / 0x100) & 0xff]! + h[ms & 0xff]! + '-' +
    h[0x70 | ((seq >>> 28) & 0x0f)]! + h[(seq >>> 20) & 0xff]! + '-' +
    h[0x80 | ((seq >>> 14) & 0x3f)]! + h[(seq >>> 6) & 0xff]! + '-' +
    h[((seq << 2) & 0xff) | (pool[r + 10]! & 0x03)]! + h[pool[r + 11]!]! + h[pool[r + 12]!]! + h[pool[r + 13]!]! + h[pool[r + 14]!]! + h[pool[r + 15]!]!
  );
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Engine codes: lower-case letters and digits, starting with a letter, safe inside a schema name. */
export function newEngineCode(): string {
  let code = ALPHABET[randomInt(26)];
  for (let i = 0; i < 11; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

import { v7 as uuidv7 } from 'uuid';
import { randomInt } from 'node:crypto';

/** ObjectIds: UUID v7, sortable and index-friendly (api-conventions.md). */
export function newId(): string {
  return uuidv7();
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Engine codes: lower-case letters and digits, starting with a letter, safe inside a schema name. */
export function newEngineCode(): string {
  let code = ALPHABET[randomInt(26)];
  for (let i = 0; i < 11; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

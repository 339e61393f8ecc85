/** A file's storage key, from ids only (docs/decisions/0008 "Storage"): `<engineCode>/<yyyymm>/<fileId>`. */
export function storageKeyOf(engineCode: string, fileId: string, now: Date = new Date()): string {
  return `${engineCode}/${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}/${fileId}`;
}

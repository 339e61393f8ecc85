import type { contracts } from '@tritium/shared';
import type { FileRow } from './files.repo.ts';

/** A file row as the client sees it (no storage key, no uploader). */
export function presentFile(row: FileRow): contracts.FileDto {
  return { fileId: row.id, name: row.name, size: Number(row.size), contentType: row.content_type };
}

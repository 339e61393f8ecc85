/** MaxUploadSize of file controls, in MB (domain.md §3, §9). */
import { z } from 'zod';
import { UPLOAD_LIMITS_MB } from '../../constants/limits.ts';

export function maxUploadSizeSchema(defaultMb: number, maxMb: number = UPLOAD_LIMITS_MB.max) {
  return z.number().int().min(1).max(maxMb, `单个文件最大${maxMb}MB`).default(defaultMb);
}

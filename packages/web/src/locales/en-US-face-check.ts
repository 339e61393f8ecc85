import type { Catalogue } from './zh-CN.ts';
import type { zhCNFaceCheck } from './zh-CN-face-check.ts';

// en-US of zh-CN-face-check.ts.
export const enUSFaceCheck: Catalogue<typeof zhCNFaceCheck> = {
  title: 'Face check',
};

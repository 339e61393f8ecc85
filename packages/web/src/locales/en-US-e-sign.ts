import type { Catalogue } from './zh-CN.ts';
import type { zhCNESign } from './zh-CN-e-sign.ts';

// en-US of zh-CN-e-sign.ts.
export const enUSESign: Catalogue<typeof zhCNESign> = {
  title: 'E-sign',
};

// The en-US catalogue as one key tree joined from its two parts (docs/decisions/0036), like zh-CN.ts.
import type { Catalogue } from './zh-CN.ts';
import { enUSEntry } from './en-US-entry.ts';
import { enUSWorkbench } from './en-US-workbench.ts';

/** The en-US catalogue: the same keys as zh-CN (checked by the type and by locales.test.ts). */
export const enUS: Catalogue = { ...enUSEntry, ...enUSWorkbench };

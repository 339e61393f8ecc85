// The zh-CN catalogue, the product's first language (ui.md), as one key tree joined from its two parts
// (docs/decisions/0036): the sign-in part the first page loads and the workbench part loaded with the workbench.
// Types and locales.test.ts read the whole tree; the app loads the parts through lib/i18n.ts.
import { zhCNEntry } from './zh-CN-entry.ts';
import { zhCNWorkbench } from './zh-CN-workbench.ts';

/** The zh-CN catalogue. en-US mirrors every key. */
export const zhCN = { ...zhCNEntry, ...zhCNWorkbench };

/** A catalogue with the same keys as zh-CN, each value a string. */
export type Catalogue<T = typeof zhCN> = { [K in keyof T]: T[K] extends string ? string : Catalogue<T[K]> };

/** Option lists of radio, checkbox and drop-down lists: DefaultItems and ItemColors (domain.md §3, §5). */
import { z } from 'zod';
import { STYLE_PALETTE_SIZE } from '../../constants/formats.ts';
import { MAX_SELECT_OPTIONS } from '../../constants/limits.ts';
import { inputControlOptions } from './base.ts';

// Checkbox-list values are joined with ';' for lists and exports and split on import, so an item may not hold one.
export const SELECT_ITEM_SEPARATOR = ';';

export const selectItemSchema = z
  .string()
  .trim()
  .min(1, '选项不能为空')
  .refine((item) => !item.includes(SELECT_ITEM_SEPARATOR), `选项不能包含“${SELECT_ITEM_SEPARATOR}”`);

/** DefaultItems: the choices, at most MAX_SELECT_OPTIONS and no two alike. */
export const selectItemsSchema = z
  .array(selectItemSchema)
  .min(1, '至少需要一个选项')
  .max(MAX_SELECT_OPTIONS, `选项最多${MAX_SELECT_OPTIONS}个`)
  .refine((items) => new Set(items).size === items.length, '选项不能重复')
  .default(() => ['选项1', '选项2', '选项3']);

/** ItemColors: item text → colour index in the style palette. */
export const itemColorsSchema = z
  .record(z.string(), z.number().int().min(0).max(STYLE_PALETTE_SIZE - 1))
  .default(() => ({}));

/** One chosen item (radio, drop-down) or several (checkbox list); the default is no choice. */
export const singleChoiceDefault = selectItemSchema.nullable().default(null);
export const multipleChoiceDefault = z.array(selectItemSchema).default(() => []);

/**
 * Options of a list control: the input base, items, colours and a default choice that must be among
 * the items.
 */
export function selectControlOptions<D extends typeof singleChoiceDefault | typeof multipleChoiceDefault>(
  defaultName: string,
  defaultValue: D,
) {
  return inputControlOptions(defaultName)
    .extend({ defaultItems: selectItemsSchema, itemColors: itemColorsSchema, defaultValue })
    .superRefine((parsed, ctx) => {
      const options = parsed as { defaultItems: string[]; itemColors: Record<string, number>; defaultValue: unknown };
      const items = new Set(options.defaultItems);
      for (const key of Object.keys(options.itemColors)) {
        if (!items.has(key)) ctx.addIssue({ code: 'custom', path: ['itemColors', key], message: '颜色对应的选项不存在' });
      }
      const chosen = options.defaultValue;
      const values: unknown[] = Array.isArray(chosen) ? chosen : chosen == null ? [] : [chosen];
      if (values.some((item) => typeof item !== 'string' || !items.has(item))) {
        ctx.addIssue({ code: 'custom', path: ['defaultValue'], message: '默认值必须是已有选项' });
      }
    });
}

/**
 * The checks a control's value passes beyond its type's value schema, shared by the form runtime (as people type)
 * and the server (on every save), so both give the same answer: the type's own valueRule, text modes (domain.md §5),
 * number and date ranges.
 */
import { isEmail, isIdCard, isTelephone } from '../validation/patterns.ts';
import type { AnyControlType } from './types.ts';

const TEXT_MODE_CHECKS: Readonly<Record<string, { test: (value: string) => boolean; message: string }>> = {
  Email: { test: isEmail, message: '请输入正确的邮箱地址' },
  IdCard: { test: (value) => isIdCard(value), message: '请输入正确的身份证号' },
  Telephone: { test: isTelephone, message: '请输入正确的电话号码' },
};

type Range = { min?: number | string | null; max?: number | string | null } | null | undefined;

/** Problems of a value already accepted by the type's value schema; null when it is fine. Empty values pass. */
export function valueRuleProblem(type: AnyControlType, options: Record<string, unknown>, value: unknown): string | null {
  if (value == null || value === '') return null;
  const own = type.valueRule?.(value, options);
  if (own) return own;
  if (type.key === 'textBox' && typeof value === 'string') {
    const check = TEXT_MODE_CHECKS[String(options.textMode ?? 'Normal')];
    if (check && !check.test(value)) return check.message;
  }
  const range = options.rangeRule as Range;
  if (range && typeof value === 'number') {
    if (typeof range.min === 'number' && value < range.min) return `不能小于${range.min}`;
    if (typeof range.max === 'number' && value > range.max) return `不能大于${range.max}`;
  }
  if (range && type.key === 'dateTime' && typeof value === 'string') {
    const at = Date.parse(value);
    if (typeof range.min === 'string' && at < Date.parse(range.min)) return `不能早于${range.min.slice(0, 10)}`;
    if (typeof range.max === 'string' && at > Date.parse(range.max)) return `不能晚于${range.max.slice(0, 10)}`;
  }
  return null;
}

/** The full client and server check of one value: the value schema, then the rules above. */
export function controlValueProblem(type: AnyControlType, options: Record<string, unknown>, value: unknown): string | null {
  if (value == null || value === '') return null;
  const parsed = type.value?.safeParse(value);
  if (parsed && !parsed.success) return parsed.error.issues[0]?.message ?? '值无效';
  return valueRuleProblem(type, options, parsed ? parsed.data : value);
}

/**
 * Client-side format patterns (domain.md §5, calls.md §5). The server re-checks everything; these give
 * the user an early answer. None of the patterns has the g or y flag, so `test` keeps no state.
 */

// domain.md §5: local part of letters, digits and . _ % + - (no leading, trailing or double dot),
// then a domain of labels that do not start or end with a hyphen and a top-level part of 2+ letters.
export const EMAIL_PATTERN =
  /^[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;

// domain.md §5: mainland mobile, 11 digits starting 13–19. Used on its own for sign-in.
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;

// domain.md §5: landline with a 3- or 4-digit area code and an optional dash, a 7- or 8-digit local
// number and an optional dash-separated extension of up to 6 digits. Area codes start with 0 but never
// 00, which is the international prefix.
export const LANDLINE_PATTERN = /^0[1-9]\d{1,2}-?\d{7,8}(?:-\d{1,6})?$/;

// domain.md §5: "mainland mobile or landline number".
export const PHONE_PATTERN = new RegExp(`(?:${MOBILE_PATTERN.source})|(?:${LANDLINE_PATTERN.source})`);

// domain.md §5: nationwide service numbers 400 and 800, as 400-123-4567, 400-1234567 or 4001234567.
export const SERVICE_NUMBER_PATTERN = /^[48]00-?\d{3}-?\d{4}$/;

// domain.md §5: "telephone including 400 numbers" — mobile, landline or a 400/800 number.
export const TELEPHONE_PATTERN = new RegExp(`${PHONE_PATTERN.source}|(?:${SERVICE_NUMBER_PATTERN.source})`);

// domain.md §5: 15-digit (yymmdd birth date) or 18-digit (yyyymmdd birth date, check character 0-9 or X)
// identity card. The shape only; isIdCard also checks the date and the check character.
export const ID_CARD_15_PATTERN = /^[1-9]\d{5}\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}$/;
export const ID_CARD_18_PATTERN = /^[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]$/;
export const ID_CARD_PATTERN = new RegExp(`(?:${ID_CARD_15_PATTERN.source})|(?:${ID_CARD_18_PATTERN.source})`);

// domain.md §5, calls.md §9: 8 to 16 letters and digits, with at least one of each.
export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{8,16}$/;
// domain.md §5: the older rule (6 to 16); still accepted where existing passwords are checked.
export const LEGACY_PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{6,16}$/;

// domain.md §5: letters, digits and underscore, not digits only (a code must not look like a number).
export const CODE_PATTERN = /^(?!\d+$)[A-Za-z0-9_]+$/;

// domain.md §5, calls.md §7: the SMS verification code.
export const VERIFY_CODE_PATTERN = /^\d{6}$/;

const matches = (pattern: RegExp, value: unknown): value is string => typeof value === 'string' && pattern.test(value);

export const isEmail = (value: unknown): value is string => matches(EMAIL_PATTERN, value);
export const isMobile = (value: unknown): value is string => matches(MOBILE_PATTERN, value);
export const isLandline = (value: unknown): value is string => matches(LANDLINE_PATTERN, value);
export const isPhone = (value: unknown): value is string => matches(PHONE_PATTERN, value);
export const isTelephone = (value: unknown): value is string => matches(TELEPHONE_PATTERN, value);
export const isPassword = (value: unknown): value is string => matches(PASSWORD_PATTERN, value);
export const isLegacyPassword = (value: unknown): value is string => matches(LEGACY_PASSWORD_PATTERN, value);
export const isCode = (value: unknown): value is string => matches(CODE_PATTERN, value);
export const isVerifyCode = (value: unknown): value is string => matches(VERIFY_CODE_PATTERN, value);

// GB 11643: weights of the first 17 digits and the check character for each remainder mod 11
// (ISO 7064 MOD 11-2).
const ID_CARD_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CARD_CHECK_CHARS = '10X98765432';

/** The check character an 18-digit identity number must end with, from its first 17 digits. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_CARD_WEIGHTS[i];
  return ID_CARD_CHECK_CHARS[sum % 11];
}

function isRealPastDate(year: number, month: number, day: number, now: Date): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  const exists = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists && date.getTime() <= now.getTime();
}

/**
 * True for a 15- or 18-digit identity number whose birth date exists and is not in the future, and
 * (18 digits) whose last character matches the MOD 11-2 check. 15-digit numbers were issued before
 * 2000, so their two-digit year is read as 19yy. A lower-case x is accepted as the check character.
 */
export function isIdCard(value: unknown, now: Date = new Date()): value is string {
  if (typeof value !== 'string') return false;
  if (ID_CARD_18_PATTERN.test(value)) {
    const [year, month, day] = [value.slice(6, 10), value.slice(10, 12), value.slice(12, 14)].map(Number);
    return isRealPastDate(year, month, day, now) && idCardCheckChar(value) === value[17].toUpperCase();
  }
  if (ID_CARD_15_PATTERN.test(value)) {
    const [year, month, day] = [value.slice(6, 8), value.slice(8, 10), value.slice(10, 12)].map(Number);
    return isRealPastDate(1900 + year, month, day, now);
  }
  return false;
}

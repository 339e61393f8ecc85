import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
// Patterns and limits straight from packages/shared (not its index, which also loads every zod contract), so
// the client and the server check the same shapes; only the messages are the client's, in the user's language.
import { MOBILE_PATTERN, PASSWORD_PATTERN, VERIFY_CODE_PATTERN } from '@tritium/shared/validation/patterns';
import { NAME_LENGTH } from '@tritium/shared/constants/limits';

// contracts/auth/fields.ts: EngineCode and PersonName have no shared pattern constant yet.
const ENGINE_CODE_PATTERN = /^[a-z0-9]{4,32}$/;
const PERSON_NAME_MAX = 32;

type Check = (value: string) => boolean;

/** A rule that leaves empty values to the `required` rule and checks the trimmed text otherwise. */
function checked(check: Check, message: string, trim = true): FormRule {
  return {
    validator: (_rule, value: unknown) => {
      if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return Promise.resolve();
      const text = trim ? String(value).trim() : String(value);
      return check(text) ? Promise.resolve() : Promise.reject(new Error(message));
    },
  };
}

const pattern = (regex: RegExp): Check => (value) => regex.test(value);
const lengthBetween = (min: number, max: number): Check => (value) => value.length >= min && value.length <= max;

export const mobileRules = (t: TFunction): FormRule[] => [
  { required: true, whitespace: true, message: t('validation.mobileRequired') },
  checked(pattern(MOBILE_PATTERN), t('validation.mobileInvalid')),
];

/** Sign-in accepts any stored password: older accounts may predate the 8–16 rule. */
export const signInPasswordRules = (t: TFunction): FormRule[] => [{ required: true, message: t('validation.passwordRequired') }];

/** A new password is not trimmed: removing spaces silently would change it. */
export const newPasswordRules = (t: TFunction): FormRule[] => [
  { required: true, message: t('validation.passwordRequired') },
  checked(pattern(PASSWORD_PATTERN), t('validation.passwordInvalid'), false),
];

export const confirmPasswordRules = (t: TFunction, passwordField = 'password'): FormRule[] => [
  { required: true, message: t('validation.confirmRequired') },
  ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) =>
      !value || value === getFieldValue(passwordField) ? Promise.resolve() : Promise.reject(new Error(t('validation.confirmMismatch'))),
  }),
];

export const verifyCodeRules = (t: TFunction): FormRule[] => [
  { required: true, whitespace: true, message: t('validation.codeRequired') },
  checked(pattern(VERIFY_CODE_PATTERN), t('validation.codeInvalid')),
];

export const userNameRules = (t: TFunction): FormRule[] => [
  { required: true, whitespace: true, message: t('validation.userNameRequired') },
  checked(lengthBetween(1, PERSON_NAME_MAX), t('validation.userNameTooLong')),
];

export const engineNameRules = (t: TFunction): FormRule[] => [
  { required: true, whitespace: true, message: t('validation.engineNameRequired') },
  checked(lengthBetween(NAME_LENGTH.min, NAME_LENGTH.max), t('validation.engineNameLength')),
];

export const engineCodeRules = (t: TFunction): FormRule[] => [
  { required: true, whitespace: true, message: t('validation.engineCodeRequired') },
  checked(pattern(ENGINE_CODE_PATTERN), t('validation.engineCodeInvalid')),
];

export const isValidMobile = (value: unknown): value is string => typeof value === 'string' && MOBILE_PATTERN.test(value.trim());

export const isValidEngineCode = (value: unknown): value is string => typeof value === 'string' && ENGINE_CODE_PATTERN.test(value);

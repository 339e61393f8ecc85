import { z } from 'zod';
import { SchemaCode } from '../form-design/index.ts';

// Public fill-in links (issue 19, form scene ExternalForm): the designer's calls under /v1/form/externalform/* and the
// visitor's under /v1/external/form*. calls.md names the scene, not the payloads: these are ours.

/** Control types a visitor can fill without an account (no people, files, links to other data or sub-tables). */
export const PUBLIC_FILL_CONTROL_TYPES = ['textBox', 'textArea', 'number', 'dateTime', 'radioList', 'checkboxList', 'dropDown', 'checkbox'] as const;
export { PUBLIC_LINK_PASSWORD_MAX } from './link-password.ts';
import { LinkPassword, PUBLIC_LINK_PASSWORD_MAX } from './link-password.ts';

export const PublicLinkDto = z.object({
  schemaCode: z.string(),
  enabled: z.boolean(),
  /** The path a visitor opens (the web app's page). */
  path: z.string(),
  hasPassword: z.boolean(),
  expiresAt: z.string().nullable(),
  maxSubmissions: z.number().int().nullable(),
  submissions: z.number().int(),
  ownerId: z.string(),
  ownerName: z.string(),
});
export type PublicLinkDto = z.infer<typeof PublicLinkDto>;

/** POST /v1/form/externalform/get {schemaCode} → the form's link or null. */
export const PublicLinkGetBody = z.strictObject({ schemaCode: SchemaCode });
export const PublicLinkResult = z.object({ link: PublicLinkDto.nullable() });
export type PublicLinkResult = z.infer<typeof PublicLinkResult>;

/** POST /v1/form/externalform/save: creates or changes the link. password: absent keeps it, null removes it. */
export const PublicLinkSaveBody = z.strictObject({
  schemaCode: SchemaCode,
  enabled: z.boolean(),
  password: LinkPassword.nullable().optional(),
  expiresAt: z.string().datetime({ offset: true }).nullable().default(null),
  maxSubmissions: z.number().int().min(1).max(1_000_000).nullable().default(null),
  ownerId: z.string().trim().min(1).max(64),
});
export type PublicLinkSaveBody = z.input<typeof PublicLinkSaveBody>;

/** POST /v1/form/externalform/reset {schemaCode}: a new address; the old one stops working at once. */
export const PublicLinkResetBody = PublicLinkGetBody;

/** A field as the visitor's page shows it. */
export const PublicField = z.object({
  code: z.string(),
  type: z.enum(PUBLIC_FILL_CONTROL_TYPES),
  displayName: z.string(),
  required: z.boolean(),
  /** The control's published options: the page draws the field with the form runtime's own editor for its type. */
  options: z.record(z.string(), z.unknown()),
});
export type PublicField = z.infer<typeof PublicField>;

/** GET /v1/external/form?engineCode&token (password in the X-Link-Password header) → the form to fill, or why not. */
export const PublicFormQuery = z.strictObject({ engineCode: z.string().min(1).max(64), token: z.string().min(1).max(64) });
export const PublicFormResult = z.object({
  displayName: z.string(),
  /** A password is asked and the one given (if any) is not it: no fields are answered. */
  needsPassword: z.boolean(),
  fields: z.array(PublicField),
});
export type PublicFormResult = z.infer<typeof PublicFormResult>;

/** POST /v1/external/form/submit */
export const PublicSubmitBody = z.strictObject({
  engineCode: z.string().min(1).max(64),
  token: z.string().min(1).max(64),
  password: z.string().max(PUBLIC_LINK_PASSWORD_MAX).optional(),
  values: z.record(z.string().max(63), z.unknown()),
});
export type PublicSubmitBody = z.input<typeof PublicSubmitBody>;
export const PublicSubmitResult = z.object({ submitted: z.boolean(), seqNo: z.string().nullable() });
export * from './record-share.ts';
export * from './open-query.ts';

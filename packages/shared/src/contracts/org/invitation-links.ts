import { z } from 'zod';
import { LoginResult } from '../auth/sign-in.ts';
import { Mobile, Password, PersonName, VerifyCode } from '../auth/fields.ts';
import { UnitId } from './fields.ts';

// Invitation links (邀请链接, docs/decisions/0112): an Administrator issues a link `/entry/join/<token>`; whoever opens
// it proves a mobile number and joins the engine as a member of the link's department.

/** Validity choices the console offers; the server accepts any whole number of days from 1 to 30. */
export const INVITATION_LINK_DAYS = [1, 7, 30] as const;

/** The token of a link: 32 random bytes, base64url (43 characters). */
export const InvitationLinkToken = z.string().trim().min(1, '缺少邀请链接').max(128, '邀请链接无效').regex(/^[A-Za-z0-9_-]+$/, '邀请链接无效');

/** POST /v1/org/invitation/link/create */
export const CreateInvitationLinkBody = z.strictObject({
  validDays: z.number().int().min(1, '有效期至少 1 天').max(30, '有效期最多 30 天'),
  /** The department new members join; default: the company root. */
  departmentId: UnitId.optional(),
});

export const InvitationLinkState = z.enum(['active', 'expired', 'revoked']);

/** One link as the console lists it. The token is shown only when the link is created (it is stored hashed). */
export const InvitationLinkDto = z.object({
  id: z.string(),
  state: InvitationLinkState,
  departmentId: z.string(),
  departmentName: z.string().nullable(),
  creatorName: z.string().nullable(),
  expiresTime: z.string(),
  createdTime: z.string(),
  revokedTime: z.string().nullable(),
  /** People who joined the engine through this link. */
  joinCount: z.number().int(),
});
export type InvitationLinkDto = z.infer<typeof InvitationLinkDto>;

/** The answer of create: the link, with its token and path this once. */
export const CreatedInvitationLink = InvitationLinkDto.extend({ token: z.string(), link: z.string() });
export const InvitationLinkListResult = z.object({ list: z.array(InvitationLinkDto) });

/** POST /v1/org/invitation/link/revoke */
export const RevokeInvitationLinkBody = z.strictObject({ id: UnitId });

/** GET /v1/org/invitation/link/info?token=…: what the person who opened the link sees. */
export const InvitationLinkInfoQuery = z.strictObject({ token: InvitationLinkToken });
export const InvitationLinkInfo = z.object({
  engineName: z.string(),
  inviterName: z.string().nullable(),
  departmentName: z.string().nullable(),
  expiresTime: z.string(),
});

/**
 * POST /v1/org/invitation/link/join. With mobile and code (a 'register' code) the number is proven, and a number new
 * to the platform also gives its name; without them the signed-in account joins.
 */
export const JoinByLinkBody = z.strictObject({
  token: InvitationLinkToken,
  mobile: Mobile.optional(),
  code: VerifyCode.optional(),
  userName: PersonName.optional(),
  password: Password.optional(),
});
export const JoinByLinkResult = LoginResult.extend({
  /** The account was a member of the engine already: nothing changed, the session starts there. */
  alreadyMember: z.boolean(),
});

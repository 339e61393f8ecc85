import { z } from 'zod';
import { EngineName } from '../auth/fields.ts';
import { unitIdList } from '../org/fields.ts';

// Associated organisations (关联组织; calls.md §2 /ass-org and /make-org, the `associatedCode` parameter; decision 0091).
// The spec names no API paths: these live under /v1/org/associated/.

/** The code of an association link: what `/ass-org?associatedCode=…` carries. */
export const AssociatedCode = z.string().trim().min(1, '缺少关联邀请码').max(64, '关联邀请码无效').regex(/^[A-Za-z0-9_-]+$/, '关联邀请码无效');
const EngineCode = z.string().trim().min(1, '请选择组织').max(64).regex(/^[A-Za-z0-9_-]+$/, '无效的组织编码');
export const AssociatedOrgId = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, '无效的关联 id');

/** POST /v1/org/associated/code/create: the host's administrator issues a link, valid 1–30 days (default 7). */
export const CreateAssociatedCodeBody = z.strictObject({ validDays: z.number().int().min(1, '有效期至少 1 天').max(30, '有效期最多 30 天').optional() });

export const AssociatedOrgState = z.enum(['pending', 'active', 'ended']);

/** One association as either side's administrator sees it. */
export const AssociatedOrgDto = z.object({
  id: z.string(),
  /** host: this engine issued the link and receives the partner's members as external users; partner: the other way. */
  side: z.enum(['host', 'partner']),
  state: AssociatedOrgState,
  /** A pending link past its expiry (it can no longer be accepted). */
  isExpired: z.boolean(),
  hostEngineCode: z.string(),
  hostEngineName: z.string(),
  partnerEngineCode: z.string().nullable(),
  partnerEngineName: z.string().nullable(),
  /** The host's only: the link's code and path (for a pending link). */
  associatedCode: z.string().nullable(),
  link: z.string().nullable(),
  expiresTime: z.string(),
  /** The host's only: the external department bound to the partner. */
  departmentId: z.string().nullable(),
  memberCount: z.number().int(),
  createdTime: z.string(),
  acceptedTime: z.string().nullable(),
  endedTime: z.string().nullable(),
});
export type AssociatedOrgDto = z.infer<typeof AssociatedOrgDto>;
export const AssociatedOrgListResult = z.object({ list: z.array(AssociatedOrgDto) });

/** GET /v1/org/associated/code?associatedCode=…: what the partner sees before accepting. */
export const AssociatedCodeQuery = z.object({ associatedCode: AssociatedCode });
export const AssociatedCodeInfo = z.object({
  hostEngineName: z.string(),
  expiresTime: z.string(),
  /** The organisations the signed-in person administers, and whether each can accept this link. */
  organisations: z.array(z.object({ engineCode: z.string(), engineName: z.string(), isHost: z.boolean(), isAssociated: z.boolean() })),
});

/** POST /v1/org/associated/accept: the partner's administrator connects one of their organisations. */
export const AcceptAssociationBody = z.strictObject({ associatedCode: AssociatedCode, engineCode: EngineCode });

/** POST /v1/org/associated/make-org: creates an organisation for the signed-in person, then accepts with it. */
export const MakeOrgBody = z.strictObject({ associatedCode: AssociatedCode, engineName: EngineName });
export const MakeOrgResult = z.object({ association: AssociatedOrgDto, engineCode: z.string() });

/** POST /v1/org/associated/end: either side ends the association (a pending link is withdrawn). */
export const AssociatedOrgIdBody = z.strictObject({ id: AssociatedOrgId });
export const AssociatedOrgIdQuery = z.object({ id: AssociatedOrgId });

/** A partner member who works in the host. */
export const AssociatedMemberDto = z.object({
  /** The user in the partner organisation. */
  userId: z.string(),
  name: z.string(),
  mobile: z.string(),
  /** The same person as the host's external user. */
  hostUserId: z.string(),
  /** Whether the person has an account yet (otherwise they join the host when they first sign in). */
  isJoined: z.boolean(),
});
export type AssociatedMemberDto = z.infer<typeof AssociatedMemberDto>;
export const AssociatedMemberListResult = z.object({ list: z.array(AssociatedMemberDto) });

/** POST /v1/org/associated/member/add|remove: the partner's administrator chooses who takes part (up to 200 at once). */
export const AssociatedMembersBody = z.strictObject({ id: AssociatedOrgId, userIds: unitIdList(200) });
export const AssociatedMembersChanged = z.object({ changed: z.number().int() });

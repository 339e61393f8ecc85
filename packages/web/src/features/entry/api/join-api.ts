import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// The public side of invitation links (docs/decisions/0112): /entry/join/<token>.

export type InvitationLinkInfo = z.infer<typeof contracts.InvitationLinkInfo>;
export type JoinByLinkBody = z.input<typeof contracts.JoinByLinkBody>;
export type JoinByLinkResult = z.infer<typeof contracts.JoinByLinkResult>;

// The page shows business errors itself (an unusable link is its answer, not a pop-up).
const pageCall = { disableBizError: true };

export const joinApi = {
  info: (token: string) => apiClient.get<InvitationLinkInfo>('/v1/org/invitation/link/info', { ...pageCall, query: { token } }),
  join: (body: JoinByLinkBody) => apiClient.post<JoinByLinkResult>('/v1/org/invitation/link/join', body, pageCall),
};

import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// Invitation links (docs/decisions/0112): issued, listed and turned off by Administrators.

export type InvitationLinkDto = contracts.InvitationLinkDto;
export type CreatedInvitationLink = z.infer<typeof contracts.CreatedInvitationLink>;
export type CreateInvitationLinkBody = z.input<typeof contracts.CreateInvitationLinkBody>;
type ListResult = z.infer<typeof contracts.InvitationLinkListResult>;

/** Under ['org'], so the console's invalidation after any write reloads the list too. */
export const invitationLinkKeys = { list: ['org', 'invitation-links'] as const };

export const invitationLinkApi = {
  list: () => apiClient.get<ListResult>('/v1/org/invitation/link/list'),
  create: (body: CreateInvitationLinkBody) => apiClient.post<CreatedInvitationLink>('/v1/org/invitation/link/create', body),
  revoke: (id: string) => apiClient.post<InvitationLinkDto>('/v1/org/invitation/link/revoke', { id }),
};

/** The full address of a link, to send or to scan. */
export const fullLink = (path: string) => `${window.location.origin}${path}`;

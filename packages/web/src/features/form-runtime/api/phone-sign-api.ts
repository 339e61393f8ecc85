import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// Signing on the phone (docs/decisions/0114): the PC asks for a link, then reads its state until the phone signs.

export type CreateSignLinkBody = z.input<typeof contracts.CreateSignLinkBody>;
export type CreatedSignLink = z.infer<typeof contracts.CreatedSignLink>;
export type SignLinkState = z.infer<typeof contracts.SignLinkStateResult>;

/** How often the open dialog asks whether the phone has signed. */
export const SIGN_STATE_POLL_MS = 1500;

export const phoneSignApi = {
  create: (body: CreateSignLinkBody) => apiClient.post<CreatedSignLink>('/v1/handsign/qrlink', body, { disableBizError: true }),
  state: (token: string) => apiClient.get<SignLinkState>('/v1/form/sign/state', { query: { token }, disableBizError: true }),
};

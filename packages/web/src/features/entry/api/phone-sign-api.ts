import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// The phone's side of signing on the phone (docs/decisions/0114): /entry/sign/<token>, without a session.

export type SignLinkInfo = z.infer<typeof contracts.SignLinkInfo>;

// The page shows business errors itself (a used or expired link is its answer, not a pop-up).
const pageCall = { disableBizError: true };

export const phoneSignApi = {
  info: (token: string) => apiClient.get<SignLinkInfo>('/v1/form/sign/info', { ...pageCall, query: { token } }),
  submit: (token: string, signature: string) => apiClient.post<{ signed: true }>('/v1/form/sign/submit', { token, signature }, pageCall),
};

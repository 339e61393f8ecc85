import { useEffect } from 'react';
import { tokenAgeSeconds } from '../../../lib/jwt.ts';
import { getToken, setToken } from '../../../lib/session.ts';
import { workbenchApi } from '../api/workbench-api.ts';

// The token lives 48 hours (calls.md §9); past half of that it is exchanged for a fresh one.
export const TOKEN_REFRESH_AFTER_SECONDS = 24 * 60 * 60;

let attempted = false;

/** Refreshes an old token once per page load; a failure leaves the current token in place. */
export async function refreshTokenIfOld(nowMs = Date.now()): Promise<boolean> {
  if (attempted) return false;
  const token = getToken();
  const age = token ? tokenAgeSeconds(token, nowMs) : undefined;
  if (age === undefined || age < TOKEN_REFRESH_AFTER_SECONDS) return false;
  attempted = true;
  try {
    const result = await workbenchApi.refreshToken();
    setToken(result.accessToken, result.expiresIn);
    return true;
  } catch {
    return false;
  }
}

/** For tests: allow another refresh in the same page life. */
export function resetTokenRefresh(): void {
  attempted = false;
}

export function useTokenRefresh(): void {
  useEffect(() => {
    void refreshTokenIfOld();
  }, []);
}

import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { startSession } from '../../../lib/session.ts';
import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';
import { DEFAULT_AFTER_SIGN_IN, safeRedirectTarget } from '../redirect-target.ts';
import type { LoginResult } from '../api/auth-api.ts';

/**
 * Stores a new session: the token and engine cookies, and forgets every cached answer, which belonged to
 * the previous session or engine (a user info cached before registering another engine would show the old one).
 */
export function useStartSession() {
  const queryClient = useQueryClient();
  return useCallback(
    (result: LoginResult) => {
      startSession(result);
      queryClient.clear();
    },
    [queryClient],
  );
}

/** What every successful sign-in does: start the session, then go where the person was heading (or to the workbench). */
export function useCompleteSignIn() {
  const navigate = useNavigate();
  const location = useLocation();
  const beginSession = useStartSession();
  return useCallback(
    (result: LoginResult) => {
      beginSession(result);
      // An account without any engine has nothing to open yet: it creates its organisation first.
      if (!result.engineCode) {
        navigate('/entry/register/corp', { replace: true });
        return;
      }
      const target = safeRedirectTarget(readGlobalQueryParams(location.search).redirectUrl);
      navigate(target ?? DEFAULT_AFTER_SIGN_IN, { replace: true });
    },
    [navigate, location.search, beginSession],
  );
}

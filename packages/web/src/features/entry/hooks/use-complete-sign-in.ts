import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { startSession } from '../../../lib/session.ts';
import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';
import { DEFAULT_AFTER_SIGN_IN, safeRedirectTarget } from '../redirect-target.ts';
import type { LoginResult } from '../api/auth-api.ts';

/**
 * Stores a new session: the token and engine cookies. The query cache, where loaded, forgets every answer of the
 * previous session or engine as the session starts (lib/query-client.ts, lib/session.ts onSessionStart).
 */
export function useStartSession() {
  return useCallback((result: LoginResult) => startSession(result), []);
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

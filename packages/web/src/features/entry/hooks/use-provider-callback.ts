import { useEffect, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { SsoLoginResult } from '../api/auth-api.ts';
import { useStartSession } from './use-complete-sign-in.ts';
import { DEFAULT_AFTER_SIGN_IN, safeRedirectTarget } from '../redirect-target.ts';

/**
 * The page an outside provider (SSO, a chat platform's QR login) sends the browser back to: hands the named query
 * parameters to the server once — a state can be used only once, and React runs effects twice in development — then
 * keeps the session and goes where the person was heading.
 */
export function useProviderCallback(forwarded: readonly string[], complete: (query: Record<string, string>) => Promise<SsoLoginResult>) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const beginSession = useStartSession();
  const sent = useRef(false);
  const mutation = useMutation({
    mutationFn: complete,
    onSuccess: (result) => {
      beginSession(result);
      navigate(safeRedirectTarget(result.returnTo) ?? DEFAULT_AFTER_SIGN_IN, { replace: true });
    },
  });
  const { mutate } = mutation;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const query: Record<string, string> = {};
    for (const name of forwarded) {
      const value = params.get(name);
      if (value !== null) query[name] = value;
    }
    mutate(query);
  }, [params, mutate, forwarded]);
  return mutation;
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { authApi } from '../api/auth-api.ts';
import { isValidMobile } from '../form-rules.ts';

const keyOf = (mobile: string) => ['register', 'validate', mobile] as const;

/**
 * Whether a mobile number already has an account (GET /v1/register/validate), asked as soon as the number is
 * complete: a registered number skips name and password, a new one must set them.
 */
export function useMobileRegistration(mobileInput: unknown, enabled: boolean) {
  const queryClient = useQueryClient();
  const mobile = isValidMobile(mobileInput) ? mobileInput.trim() : undefined;
  const query = useQuery({
    queryKey: keyOf(mobile ?? ''),
    queryFn: () => authApi.validateMobile(mobile!),
    enabled: enabled && !!mobile,
    staleTime: 60_000,
  });
  /** The answer for a number, asking now when the form is submitted before it arrived. */
  const ensure = (value: string) => queryClient.fetchQuery({ queryKey: keyOf(value), queryFn: () => authApi.validateMobile(value), staleTime: 60_000 });
  return { registered: mobile ? query.data?.registered : undefined, isChecking: query.isFetching, ensure };
}

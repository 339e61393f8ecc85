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
  const registered = mobile ? query.data?.registered : undefined;
  /**
   * On submit: whether the number has an account, asking now if the answer has not come. Null when the form must wait:
   * the question failed (`onError` is told), or the number is new and its name and password fields have just appeared.
   */
  const resolveOnSubmit = async (value: string, onError: (error: unknown) => void): Promise<boolean | null> => {
    if (registered !== undefined) return registered;
    try {
      return (await ensure(value)).registered ? true : null;
    } catch (error) {
      onError(error);
      return null;
    }
  };
  return { registered, isChecking: query.isFetching, ensure, resolveOnSubmit };
}

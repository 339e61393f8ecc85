import { useCallback, useEffect, useRef, useState } from 'react';

interface ActionOptions<V, R> {
  run: (variables: V) => Promise<R>;
  onSuccess?: (result: R, variables: V) => void;
  onError?: (error: unknown, variables: V) => void;
}

/**
 * One call a form makes on submit, with its pending state: what the login home's forms need of react-query's
 * useMutation, without the query cache on the sign-in page (docs/decisions/0084). No retries, as the app's
 * mutations; the callbacks run even when the form has gone, as useMutation's own do.
 */
export function useAction<V, R>(options: ActionOptions<V, R>) {
  const [isPending, setIsPending] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const mutate = useCallback((variables: V) => {
    setIsPending(true);
    const settle = () => mounted.current && setIsPending(false);
    let call: Promise<R>;
    try {
      call = latest.current.run(variables);
    } catch (error) {
      call = Promise.reject(error);
    }
    call.then(
      (result) => {
        settle();
        latest.current.onSuccess?.(result, variables);
      },
      (error: unknown) => {
        settle();
        latest.current.onError?.(error, variables);
      },
    );
  }, []);
  return { mutate, isPending };
}

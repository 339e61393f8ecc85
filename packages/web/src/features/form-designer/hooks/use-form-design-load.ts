import { useQuery } from '@tanstack/react-query';
import { formDesignApi, formDesignKeys } from '../api/form-design-api.ts';

/** The form's draft and published version. Loaded once: the designer owns the draft from then on. */
export function useFormDesignLoad(schemaCode: string) {
  return useQuery({
    queryKey: formDesignKeys.load(schemaCode),
    queryFn: () => formDesignApi.load(schemaCode),
    enabled: !!schemaCode,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

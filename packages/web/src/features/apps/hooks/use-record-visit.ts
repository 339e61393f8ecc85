import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { appKeys, appsApi } from '../api/apps-api.ts';

/** Tells the server the person opened an app or node (for 最近访问), once per opening. */
export function useRecordVisit(code: string | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!code) return;
    void appsApi.visit(code).then(
      () => queryClient.invalidateQueries({ queryKey: appKeys.recent }),
      () => undefined,
    );
  }, [code, queryClient]);
}

import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getEngineCode, setEngineCode } from '../../../lib/session.ts';
import { workbenchApi, workbenchKeys } from '../api/workbench-api.ts';
import { FEATURE_SWITCH_NAMES, toSwitchMap } from '../feature-switches.ts';

/** The signed-in user and the engine they are in; keeps the engine cookie in step with the server's choice. */
export function useUserInfo() {
  const query = useQuery({ queryKey: workbenchKeys.userInfo, queryFn: workbenchApi.getUserInfo });
  const engineCode = query.data?.currentEngine.engineCode;
  useEffect(() => {
    if (engineCode && getEngineCode() !== engineCode) setEngineCode(engineCode);
  }, [engineCode]);
  return query;
}

export function useConnectedEngines() {
  return useQuery({ queryKey: workbenchKeys.connectedEngines, queryFn: workbenchApi.getConnectedEngines });
}

/** The query of the engine's feature switches: invalidated when an administrator sets one. */
export const featureSwitchesKey = workbenchKeys.featureSwitches;

/** Loaded once when the workbench starts (calls.md §9). */
export function useFeatureSwitches() {
  return useQuery({
    queryKey: workbenchKeys.featureSwitches,
    queryFn: () => workbenchApi.getFeatureSwitches(FEATURE_SWITCH_NAMES),
    select: (result) => toSwitchMap(result.switches),
    staleTime: Infinity,
  });
}

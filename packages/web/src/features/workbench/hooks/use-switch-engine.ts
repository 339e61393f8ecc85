import { App as AntApp } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { setEngineCode } from '../../../lib/session.ts';
import { workbenchApi, type EngineDto } from '../api/workbench-api.ts';

/**
 * Switches engine (calls.md §4): tell the server, move the engine cookie, drop every cached answer (user,
 * apps, context all belong to the old engine) and load them again, starting with the user info.
 */
export function useSwitchEngine() {
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: async (engine: EngineDto) => {
      await workbenchApi.switchEngine({ engineCode: engine.engineCode });
      setEngineCode(engine.engineCode);
      // resetQueries empties every query and refetches the ones on screen, so nothing from the old engine shows.
      await queryClient.resetQueries();
      return engine;
    },
    onSuccess: (engine) => void message.success(t('workbench.engineSwitched', { name: engine.engineName })),
  });
}
